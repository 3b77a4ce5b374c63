/* Any Authorization header and job id on the job routes: only the own secret is served. */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { credential, headerValue } from '../helpers/arbitraries.ts';
import { expectCatalogueAnswer } from '../helpers/invariants.ts';
import { propertyService, runs, TIMEOUT } from '../helpers/property-runs.ts';

const { service, expectConsistentDatabase, expectQuotaMatchesRows, freshPng, readyJob, snapshot } = propertyService();

const NO_SUCH_JOB = '{"error":{"code":"NOT_FOUND","message":"No such job."}}';

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
