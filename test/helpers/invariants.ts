import { expect } from 'vitest';
import { errorCodes, errorStatus, type ErrorCode } from '../../core/errors.ts';
import { getJob, type OpenedJob } from './flows.ts';
import type { TestService } from './service.ts';

/*
 * Checks shared by the property tests (test/properties/): an answer is a 2xx or comes from
 * the contract's catalogue, and the database keeps the invariants db/schema.ts implies.
 */

const JSON_TYPE = 'application/json; charset=utf-8';

/** A 2xx, or the catalogue's envelope with its code's own status; never a 5xx. Returns the code. */
export async function expectCatalogueAnswer(
  response: Response,
  where: string,
  head = false,
): Promise<ErrorCode | undefined> {
  expect(response.status, where).toBeLessThan(500);
  const text = await response.text();
  if (response.status < 300) return undefined;
  expect(response.headers.get('content-type'), where).toBe(JSON_TYPE);
  if (text === '' && head) return undefined;
  const body = JSON.parse(text);
  expect(Object.keys(body), where).toEqual(['error']);
  const { code, message, agent_instruction: instruction, retryable, ...rest } = body.error;
  expect(rest, where).toEqual({});
  expect(errorCodes, where).toContain(code);
  expect(response.status, where).toBe(errorStatus(code));
  expect(typeof message === 'string' && message.length > 0, where).toBe(true);
  if (instruction !== undefined) expect(typeof instruction, where).toBe('string');
  if (retryable) expect(response.headers.get('retry-after'), where).toMatch(/^\d+$/);
  return code;
}

type Args = (string | number)[];
export const rows = async (service: TestService, sql: string, args: Args = []) =>
  (await service.db.orm.$client.execute({ sql, args })).rows.map((row) => ({ ...row }));
export const scalar = async (service: TestService, sql: string, args: Args = []) =>
  Number(Object.values((await rows(service, sql, args))[0]!)[0]);

/** What "consistent" means for db/schema.ts: each query lists the rows that break one invariant. */
export async function expectConsistentDatabase(service: TestService, limit: number): Promise<void> {
  const q = (sql: string) => rows(service, sql);
  const broken = {
    foreignKeys: await q('PRAGMA foreign_key_check'),
    designWithoutJob: await q('SELECT id FROM designs WHERE job_id NOT IN (SELECT id FROM jobs)'),
    approvedIffOneDesign: await q(
      `SELECT id FROM jobs j WHERE (status = 'approved') != ((SELECT count(*) FROM designs d WHERE d.job_id = j.id) = 1)`,
    ),
    designNotOfShownSubmission: await q(
      'SELECT d.id FROM designs d JOIN jobs j ON j.id = d.job_id WHERE d.submission_no != j.current_submission_no',
    ),
    linkWithoutReadySubmission: await q(
      `SELECT id FROM jobs j WHERE status IN ('ready', 'declined', 'approved') AND (approval_token IS NULL OR
         NOT EXISTS (SELECT 1 FROM submissions s WHERE s.job_id = j.id AND s.no = j.current_submission_no AND s.status = 'ready'))`,
    ),
    approvalStatusOffState: await q(
      `SELECT id FROM jobs WHERE (status = 'open' AND approval_status IS NOT NULL) OR (status = 'ready' AND approval_status != 'pending')
         OR (status IN ('approved', 'declined') AND approval_status != status)`,
    ),
    submissionsOfCancelled: await q(
      `SELECT s.job_id FROM submissions s JOIN jobs j ON j.id = s.job_id WHERE j.status = 'cancelled'`,
    ),
    countedOffStatus: await q(
      `SELECT job_id, no FROM submissions WHERE counted != (status IN ('ready', 'failed_validation'))`,
    ),
    overQuota: await q(`SELECT job_id FROM submissions GROUP BY job_id HAVING sum(counted) > ${limit}`),
    keyWithoutBodyHash: await q('SELECT id FROM jobs WHERE (idempotency_key_hash IS NULL) != (request_hash IS NULL)'),
    secretNotAHash: await q(`SELECT id FROM jobs WHERE length(secret_hash) != 64 OR secret_hash GLOB '*[^0-9a-f]*'`),
  };
  const none = Object.fromEntries(Object.keys(broken).map((name) => [name, []]));
  expect(broken).toEqual(none);
}

/** The job's published quota equals what its submission rows hold. */
export async function expectQuotaMatchesRows(service: TestService, job: OpenedJob, limit: number): Promise<void> {
  const view = await getJob(service, job);
  const used = await scalar(
    service,
    `SELECT coalesce(sum(counted), 0) + coalesce(sum(status = 'processing'), 0) FROM submissions WHERE job_id = ?`,
    [job.id],
  );
  const takes = ['open', 'ready', 'declined'].includes(view.status);
  expect(view.limits.submissionsLeft).toBe(takes ? Math.max(0, limit - used) : 0);
  const latest = await scalar(service, 'SELECT coalesce(max(no), 0) FROM submissions WHERE job_id = ?', [job.id]);
  expect(view.latestSubmission?.no ?? 0).toBe(latest);
}
