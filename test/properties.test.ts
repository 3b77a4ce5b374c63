import { createHash, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createdJobSchema, jobReplaySchema } from '../core/contract/job.ts';
import { IDEMPOTENCY_KEY_PATTERN } from '../core/contract/create-job.ts';
import type { ErrorCode } from '../core/errors.ts';
import {
  acceptedBody,
  canonical,
  contentType,
  FORM,
  credential,
  handoffStep,
  headerValue,
  idempotencyKey,
  isJsonType,
  jobBody,
  parsedBody,
  reversed,
  toJsonText,
} from './helpers/arbitraries.ts';
import { bearer, openJob, roomyRateLimits, uploadPng, type OpenedJob } from './helpers/flows.ts';
import {
  expectCatalogueAnswer,
  expectConsistentDatabase as expectConsistent,
  expectQuotaMatchesRows as expectQuota,
  rows as dbRows,
  scalar as dbScalar,
} from './helpers/invariants.ts';
import { makePng } from './helpers/png.ts';
import { servicePerTest, SITE } from './helpers/service.ts';

/*
 * Properties over everything the API reads from a caller: JSON bodies, Idempotency-Key,
 * Authorization, upload bodies and the handoff bodies. Any input gets a 2xx or an answer from the
 * contract's catalogue (never a 5xx), and the database keeps its invariants afterwards.
 * Runs are random; a failure prints its seed and path. FC_SEED (and FC_PATH) replay one;
 * FC_RUNS multiplies the number of runs for a deeper local search.
 */
const SEED = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);
const SCALE = Number(process.env.FC_RUNS ?? 1);
const TIMEOUT = 30_000 * Math.max(1, SCALE);
const runs = (numRuns: number) => ({
  numRuns: Math.round(numRuns * SCALE),
  ...(SEED === undefined ? {} : { seed: SEED }),
  ...(process.env.FC_PATH ? { path: process.env.FC_PATH } : {}),
});

const LIMIT = 10;
const roomy = { limits: roomyRateLimits };
const service = servicePerTest({ config: roomy });

const JOB_CODES: ErrorCode[] = ['INVALID_REQUEST', 'LENGTH_OUT_OF_RANGE', 'WIDTH_OUT_OF_RANGE', 'IDEMPOTENCY_CONFLICT'];

const NO_SUCH_JOB = '{"error":{"code":"NOT_FOUND","message":"No such job."}}';
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Each run calls from its own address, so Idempotency-Keys of earlier runs are out of scope. */
let addressNo = 0;
const nextAddress = () => `198.18.${(++addressNo >> 8) & 255}.${addressNo & 255}`;

const rows = (sql: string, args: string[] = []) => dbRows(service, sql, args);
const scalar = (sql: string, args: string[] = []) => dbScalar(service, sql, args);
const expectConsistentDatabase = () => expectConsistent(service, LIMIT);
const expectQuotaMatchesRows = (job: OpenedJob) => expectQuota(service, job, LIMIT);

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

// ---- job routes --------------------------------------------------------------------------------

let pngSeed = 1;
const freshPng = () => makePng({ width: 300, height: 300, seed: pngSeed++ });

async function readyJob(): Promise<OpenedJob & { token: string }> {
  const job = await openJob(service);
  const response = await uploadPng(service, job, freshPng());
  expect(response.status).toBe(200);
  return { ...job, token: ((await response.json()) as any).submission.approval.url.split('/a/')[1] };
}

const snapshot = async (jobId: string) => ({
  job: await rows('SELECT * FROM jobs WHERE id = ?', [jobId]),
  submissions: await rows('SELECT job_id, no, status, sha256, counted FROM submissions WHERE job_id = ? ORDER BY no', [
    jobId,
  ]),
});

const jobRoute = fc.constantFrom(
  { method: 'GET', path: '' },
  { method: 'HEAD', path: '' },
  { method: 'DELETE', path: '' },
  { method: 'POST', path: '/submissions' },
  { method: 'GET', path: '/submissions/1' },
  { method: 'GET', path: '/submissions/2' },
  { method: 'GET', path: '/submissions/abc' },
  { method: 'GET', path: '/submissions/1/cutouts.svg' },
  { method: 'HEAD', path: '/submissions/1/preview.svg' },
  { method: 'GET', path: '/submissions/1/preview.svg' },
);
const jobIdChoice = fc.oneof(
  { weight: 4, arbitrary: fc.constant('own') },
  { weight: 1, arbitrary: fc.constantFrom('foreign', 'own-upper') },
  { weight: 1, arbitrary: fc.uuid() },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 40 }).map(encodeURIComponent) },
);
/** A header's value without the per-request id: what two refusals must share. */
const headersOf = (response: Response) =>
  [...response.headers].filter(([name]) => name !== 'x-request-id').sort(([a], [b]) => a.localeCompare(b));

describe('job routes with any Authorization header and job id', () => {
  it(
    "serve only the job's own secret; everything else gets the one 404, and changes nothing",
    async () => {
      const foreign = await readyJob();
      const reference = await service.api(`/jobs/${randomUUID()}`);
      const referenceHeaders = headersOf(reference);
      expect(await reference.text()).toBe(NO_SUCH_JOB);
      const foreignBefore = await snapshot(foreign.id);
      const step = fc.record({ route: jobRoute, credential, id: jobIdChoice });
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
          const own = await readyJob();
          const ownBefore = await snapshot(own.id);
          let changed = false;
          for (const { route, credential: cred, id: choice } of steps) {
            const named = new Map([
              ['own', own.id],
              ['foreign', foreign.id],
              ['own-upper', own.id.toUpperCase()],
            ]);
            const id = named.get(choice) ?? choice;
            // The foreign job is only ever shown secrets that are not its own, so it must not change.
            const raw = cred.header(own.secret, choice === 'foreign' ? own.secret : foreign.secret);
            const header = raw === undefined ? undefined : headerValue(raw);
            if (raw !== undefined && header === undefined) continue;
            const headers: Record<string, string> = header === undefined ? {} : { authorization: header };
            const upload = route.method === 'POST';
            if (upload) headers['content-type'] = 'image/png';
            const init = { method: route.method, headers, ...(upload ? { body: freshPng() as BodyInit } : {}) };
            const response = await service.api(`/jobs/${id}${route.path}`, init);
            const where = `${route.method} /jobs/${choice}${route.path} with ${JSON.stringify(header)}: ${response.status}`;
            // UUIDs are case-insensitive (RFC 9562), so the upper-case id names the same job.
            if (cred.right && id.toLowerCase() === own.id) {
              changed ||= route.method === 'DELETE' || upload;
              const clone = response.clone();
              await expectCatalogueAnswer(response, where, route.method === 'HEAD');
              if (route.method !== 'HEAD') expect(await clone.text(), where).not.toBe(NO_SUCH_JOB);
              continue;
            }
            expect(response.status, where).toBe(404);
            expect(headersOf(response), where).toEqual(referenceHeaders);
            expect(await response.text(), where).toBe(route.method === 'HEAD' ? '' : NO_SUCH_JOB);
          }
          if (!changed) expect(await snapshot(own.id)).toEqual(ownBefore);
          else await expectQuotaMatchesRows(own);
          expect(await snapshot(foreign.id)).toEqual(foreignBefore);
          await expectConsistentDatabase();
        }),
        runs(40),
      );
    },
    TIMEOUT,
  );
});

describe('POST /jobs/{jobId}/submissions with any body and content type', () => {
  it(
    'stores exactly the distinct PNGs it answered 200, and refuses the rest from the catalogue',
    async () => {
      const png = freshPng();
      const bytesOf = fc.oneof(
        { weight: 3, arbitrary: fc.constant(null).map(() => freshPng()) },
        { weight: 2, arbitrary: fc.tuple(fc.nat(), fc.nat(255)).map(([at, by]) => flip(png, at, by)) },
        { weight: 1, arbitrary: fc.nat().map((n) => png.subarray(0, n % png.length)) },
        { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)) },
        { weight: 1, arbitrary: fc.uint8Array({ maxLength: 16 }).map((b) => Buffer.concat([png, b])) },
      );
      const wrapping = fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom('image/png', 'IMAGE/PNG; q=1').map((type) => ({ type })) },
        {
          weight: 2,
          arbitrary: fc
            .record({
              field: fc.constantFrom('image', 'image', 'file', 'Image'),
              partType: fc.constantFrom('image/png', '', 'application/octet-stream', 'text/plain', 'image/jpeg'),
              asText: fc.boolean(),
            })
            .map((part) => ({ part })),
        },
        {
          weight: 1,
          arbitrary: fc
            .oneof(
              fc.constantFrom('text/plain', 'application/json', '', 'multipart/form-data'),
              fc.string({ maxLength: 20 }),
            )
            .map((type) => ({ type })),
        },
      );
      const upload = fc.record({
        bytes: fc.oneof(
          bytesOf,
          fc.nat().map((i) => ({ again: i })),
        ),
        wrapping,
      });
      await fc.assert(
        fc.asyncProperty(fc.array(upload, { minLength: 1, maxLength: 12 }), async (uploads) => {
          const job = await openJob(service);
          const sent: Buffer[] = [];
          const numberOf = new Map<string, number>();
          for (const { bytes: choice, wrapping: w } of uploads) {
            const bytes = Buffer.isBuffer(choice) ? choice : (sent[choice.again % Math.max(1, sent.length)] ?? png);
            sent.push(bytes);
            const headers: Record<string, string> = bearer(job.secret);
            let body: BodyInit = bytes as BodyInit;
            if ('part' in w) {
              const form = new FormData();
              const { field, partType, asText } = w.part!;
              if (asText) form.set(field, bytes.toString('latin1'));
              else form.set(field, new Blob([bytes as BlobPart], { type: partType }), 'drawing.png');
              body = form;
            } else if (headerValue(w.type) !== undefined) headers['content-type'] = w.type;
            const response = await service.api(`/jobs/${job.id}/submissions`, { method: 'POST', headers, body });
            const where = `${response.status} for ${bytes.length} bytes as ${JSON.stringify(w)}`;
            const answer = response.clone();
            const code = await expectCatalogueAnswer(response, where);
            if (code) expect(UPLOAD_CODES, where).toContain(code);
            if (answer.status !== 200) continue;
            expect(bytes.subarray(0, 8).toString('hex'), where).toBe('89504e470d0a1a0a');
            const { submission }: any = await answer.json();
            const earlier = numberOf.get(sha(bytes));
            // Identical bytes replay their stored outcome; new bytes take the next number.
            expect(submission.no, where).toBe(earlier ?? numberOf.size + 1);
            numberOf.set(sha(bytes), submission.no);
          }
          const stored = await rows('SELECT sha256, counted FROM submissions WHERE job_id = ? ORDER BY no', [job.id]);
          expect(stored.map((row) => row.sha256)).toEqual([...numberOf.keys()]);
          expect(stored.every((row) => Number(row.counted) === 1)).toBe(true);
          await expectQuotaMatchesRows(job);
          await expectConsistentDatabase();
        }),
        runs(30),
      );
    },
    TIMEOUT,
  );
});

const UPLOAD_CODES: ErrorCode[] = [
  'INVALID_FILE',
  'UNSUPPORTED_FORMAT',
  'FILE_TOO_LARGE',
  'IMAGE_TOO_SMALL',
  'IMAGE_TOO_LARGE',
  'INVALID_REQUEST',
  'TOO_MANY_SUBMISSIONS',
];

/** The PNG with one byte changed (a header, a length, a CRC or the image data). */
function flip(png: Buffer, at: number, by: number): Buffer {
  const copy = Buffer.from(png);
  const i = at % copy.length;
  copy[i] = (copy[i]! + 1 + (by % 255)) % 256;
  return copy;
}

// ---- handoff routes ----------------------------------------------------------------------------

/** decisions §5: another site's request has no session (Sec-Fetch-Site first, else Origin). */
const fromOurSite = (origin: string | undefined, fetchSite: string | undefined) =>
  fetchSite ? fetchSite === 'same-origin' : origin === undefined || origin === 'null' || origin === SITE;

describe('the handoff routes with any body, token, cookie and origin', () => {
  it(
    'move a job only along ready → declined | approved, for a signed-in same-site person, and answer from the catalogue',
    async () => {
      const sessions: Record<string, { token: string; accountId: string }> = {};
      for (const [name, email] of [
        ['first', 'first@example.com'],
        ['second', 'second@example.com'],
      ] as const) {
        const signed = await service.core.signUp({
          email,
          password: 'correct horse battery',
          clientAddress: '192.0.2.1',
        });
        if (!signed.ok) throw new Error(signed.error.message);
        sessions[name] = { token: signed.value.sessionToken, accountId: signed.value.accountId };
      }
      await fc.assert(
        fc.asyncProperty(fc.array(handoffStep, { minLength: 1, maxLength: 5 }), async (steps) => {
          const job = await readyJob();
          let state: { status: string; owner?: string; designId?: string } = { status: 'ready' };
          for (const step of steps) {
            const token = step.token === 'live' ? job.token : step.token;
            const session = step.cookie === 'first' || step.cookie === 'second' ? sessions[step.cookie]! : undefined;
            const cookie = session
              ? `jds=${session.token}`
              : step.cookie === undefined
                ? undefined
                : headerValue(step.cookie);
            const headers: Record<string, string> = {};
            if (step.type !== undefined) headers['content-type'] = step.type;
            if (cookie) headers.cookie = cookie;
            if (step.origin) headers.origin = step.origin;
            if (step.fetchSite) headers['sec-fetch-site'] = step.fetchSite;
            const init = { method: 'POST', headers, body: step.body as BodyInit };
            const response = await service.api(`/handoff/${token}/${step.action}`, init);
            const where = `${response.status} for ${JSON.stringify({ ...step, body: String(step.body) })}`;
            const form = step.type === FORM;
            const answer = response.clone();
            if (form) {
              expect(response.status, where).toBe(303);
              expect(response.headers.get('location'), where).toMatch(/^\/(?![/\\])/);
            } else await expectCatalogueAnswer(response, where);

            const live = step.token === 'live';
            const signedIn = session !== undefined && fromOurSite(step.origin, step.fetchSite);
            const [row] = await rows('SELECT status FROM jobs WHERE id = ?', [job.id]);
            const [design] = await rows('SELECT id, account_id FROM designs WHERE job_id = ?', [job.id]);
            const before = state;
            if (live && step.action === 'decline' && state.status !== 'approved') state = { status: 'declined' };
            if (live && step.action === 'adopt' && signedIn && state.status === 'ready' && row!.status === 'approved') {
              state = { status: 'approved', owner: session.accountId, designId: String(design!.id) };
            }
            expect([row!.status, design?.account_id, design?.id], where).toEqual([
              state.status,
              state.owner,
              state.designId,
            ]);
            if (form) continue;
            const body: any = await answer.json();
            if (step.action === 'decline') {
              const expected = !live ? 404 : before.status === 'approved' ? 409 : 200;
              expect(answer.status, where).toBe(expected);
            } else if (!signedIn) {
              expect([answer.status, body.error.code], where).toEqual([401, 'ACCOUNT_REQUIRED']);
            } else if (state !== before) {
              expect([answer.status, body.designId], where).toEqual([201, state.designId]);
            } else if (answer.status === 200) {
              expect([live, session.accountId, body.designId], where).toEqual([true, state.owner, state.designId]);
            } else expect(answer.status, where).not.toBe(201);
          }
          await expectConsistentDatabase();
        }),
        runs(40),
      );
    },
    TIMEOUT,
  );
});
