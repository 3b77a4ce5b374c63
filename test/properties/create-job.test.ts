/* Any body, content type and Idempotency-Key on POST /jobs: a job or a catalogue answer, never a 5xx. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createdJobSchema, jobReplaySchema } from '../../core/contract/job.ts';
import { IDEMPOTENCY_KEY_PATTERN } from '../../core/contract/create-job.ts';
import type { ErrorCode } from '../../core/errors.ts';
import {
  acceptedBody,
  canonical,
  contentType,
  headerValue,
  idempotencyKey,
  isJsonType,
  jobBody,
  parsedBody,
  reversed,
  toJsonText,
} from '../helpers/arbitraries.ts';
import { expectCatalogueAnswer } from '../helpers/invariants.ts';
import { propertyService, runs, TIMEOUT } from '../helpers/property-runs.ts';

const { service, scalar, expectConsistentDatabase } = propertyService();

const JOB_CODES: ErrorCode[] = ['INVALID_REQUEST', 'LENGTH_OUT_OF_RANGE', 'WIDTH_OUT_OF_RANGE', 'IDEMPOTENCY_CONFLICT'];

/** Each run calls from its own address, so Idempotency-Keys of earlier runs are out of scope. */
let addressNo = 0;
const nextAddress = () => `198.18.${(++addressNo >> 8) & 255}.${addressNo & 255}`;

describe('POST /jobs with any body, content type and Idempotency-Key', () => {
  it(
    'answers 201, a replay or a catalogue 400/409, and the job table follows the answers',
    async () => {
      // Bodies repeat within a run (as sent, or with their keys reordered) so that keys replay and conflict.
      const repeat = fc.tuple(fc.nat(), fc.boolean());
      const request = fc.record({ body: fc.oneof(jobBody, repeat), type: contentType, key: idempotencyKey });
      const run = fc.record({
        pool: fc.array(acceptedBody, { minLength: 1, maxLength: 2 }),
        requests: fc.array(request, { minLength: 1, maxLength: 8 }),
      });
      await fc.assert(
        fc.asyncProperty(run, async ({ pool, requests: drawn }) => {
          const requests = drawn.map(({ body, ...rest }) => {
            if (!Array.isArray(body)) return { body, ...rest };
            const chosen = pool[body[0] % pool.length]!;
            return { body: toJsonText(body[1] ? reversed(chosen) : chosen), ...rest };
          });
          const address = nextAddress();
          const jobsBefore = await scalar('SELECT count(*) FROM jobs');
          const hitsBefore = await scalar(`SELECT count(*) FROM rate_hits WHERE bucket LIKE 'globalJobsPerDay:%'`);
          const keys = new Map<string, { body: string; jobId: string }>();
          let created = 0;
          let sent = 0;
          for (const { body, type, key: rawKey } of requests) {
            const key = rawKey === undefined ? undefined : headerValue(rawKey);
            if (rawKey !== undefined && key === undefined) continue;
            const headers: Record<string, string> = {};
            if (type !== undefined && headerValue(type) !== undefined) headers['content-type'] = type;
            if (key !== undefined) headers['idempotency-key'] = key;
            const response = await service.api('/jobs', { method: 'POST', headers, body: body as BodyInit }, address);
            sent += 1;
            const where = `${response.status} for ${JSON.stringify({ body: String(body).slice(0, 300), type, key })}`;
            const answer = response.clone();
            const code = await expectCatalogueAnswer(response, where);
            expect([200, 201, 400, 409], where).toContain(answer.status);
            if (code) expect(JOB_CODES, where).toContain(code);
            if (!isJsonType(headers['content-type']))
              expect([answer.status, code], where).toEqual([400, 'INVALID_REQUEST']);
            const validKey = key !== undefined && IDEMPOTENCY_KEY_PATTERN.test(key);
            if (key !== undefined && !validKey) expect(answer.status, where).toBe(400);
            const value = parsedBody(body);
            const earlier = validKey ? keys.get(key) : undefined;
            const same = earlier !== undefined && value !== undefined && earlier.body === canonical(value.json);
            // A body that opened a job replays it under the same key: validity cannot have changed.
            if (same && isJsonType(headers['content-type'])) expect(answer.status, where).toBe(200);
            if (answer.status === 409) expect(earlier !== undefined && !same, where).toBe(true);
            if (answer.status >= 300) continue;
            const reply: any = await answer.json();
            if (answer.status === 200) {
              expect(same, where).toBe(true);
              expect(jobReplaySchema.strict().parse(reply.job).id).toBe(earlier!.jobId);
              continue;
            }
            expect(earlier, where).toBeUndefined();
            created += 1;
            const { job, credentials } = createdJobSchema.parse(reply);
            expect(credentials.jobSecret).toMatch(/^ajs_[A-Za-z0-9_-]{43}$/);
            const sentJson = value!.json as any;
            expect([job.productType, canonical(job.sizeInput)]).toEqual([
              sentJson.productType,
              canonical(sentJson.size),
            ]);
            if (validKey) keys.set(key, { body: canonical(sentJson), jobId: job.id });
          }
          expect(await scalar('SELECT count(*) FROM jobs')).toBe(jobsBefore + created);
          // Every request takes a slot in the daily bucket, whatever it was answered (contract, Limits).
          expect(await scalar(`SELECT count(*) FROM rate_hits WHERE bucket LIKE 'globalJobsPerDay:%'`)).toBe(
            hitsBefore + sent,
          );
          await expectConsistentDatabase();
        }),
        runs(100),
      );
    },
    TIMEOUT,
  );
});
