import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, errorOf, getJob, openJob, roomyRateLimits, uploadPng, type OpenedJob } from './helpers/flows.ts';
import { signedUpAccount } from './helpers/site.ts';
import { makePng } from './helpers/png.ts';
import { removeDir, SITE, startService, type TestService } from './helpers/service.ts';
import { nextWriteQueued, waitFor } from './helpers/wait.ts';

const DAY = 24 * 3600 * 1000;
const roomy = { limits: roomyRateLimits };

let service: TestService;
beforeEach(async () => {
  service = await startService({ config: roomy });
});
afterEach(async () => {
  await service.close();
  removeDir(service.dir);
});

let seed = 1;
const png = () => makePng({ width: 300, height: 300, seed: seed++ });

/** A job with a ready submission, and its approval token. */
async function readyJob(): Promise<OpenedJob & { token: string }> {
  const job = await openJob(service);
  const response = await uploadPng(service, job, png());
  expect(response.status).toBe(200);
  const body: any = await response.json();
  return { ...job, token: body.submission.approval.url.split('/a/')[1] };
}

const account = async (email: string): Promise<string> => (await signedUpAccount(service, email)).sessionToken;

const adopt = (token: string, body: unknown, session?: string, headers: Record<string, string> = {}) =>
  service.api(`/handoff/${token}/adopt`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(session ? { cookie: `jds=${session}` } : {}), ...headers },
    body: JSON.stringify(body),
  });
const adoptForm = (token: string, submissionNo: string, session?: string) =>
  service.api(`/handoff/${token}/adopt`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: SITE,
      ...(session ? { cookie: `jds=${session}` } : {}),
    },
    body: `submissionNo=${submissionNo}`,
  });
const decline = (token: string, form = false) =>
  service.api(`/handoff/${token}/decline`, {
    method: 'POST',
    headers: form ? { 'content-type': 'application/x-www-form-urlencoded', origin: SITE } : {},
  });
const designRows = async (jobId: string) => {
  const { rows } = await service.db.orm.$client.execute({
    sql: 'SELECT * FROM designs WHERE job_id = ?',
    args: [jobId],
  });
  return rows;
};

describe('POST /handoff/{token}/adopt', () => {
  it('approves for a signed-in person: 201 with the design, the job approved and locked', async () => {
    const job = await readyJob();
    const session = await account('dana@example.com');
    const response = await adopt(job.token, { submissionNo: 1 }, session);
    expect(response.status).toBe(201);
    const { designId } = (await response.json()) as any;
    expect(designId).toMatch(/^[0-9a-f-]{36}$/);
    const read = await getJob(service, job);
    expect(read).toMatchObject({
      status: 'approved',
      approval: { status: 'approved' },
      limits: { submissionsLeft: 0 },
    });
    expect((await errorOf(await uploadPng(service, job, png()))).code).toBe('JOB_LOCKED');
    const cancel = await service.api(`/jobs/${job.id}`, { method: 'DELETE', headers: bearer(job.secret) });
    expect((await errorOf(cancel)).code).toBe('JOB_LOCKED');
    expect(await designRows(job.id)).toHaveLength(1);
  });

  it('answers the same account again with 200 and the same design, another account with 409 ALREADY_APPROVED', async () => {
    const job = await readyJob();
    const dana = await account('dana@example.com');
    const first: any = await (await adopt(job.token, { submissionNo: 1 }, dana)).json();
    const again = await adopt(job.token, { submissionNo: 1 }, dana);
    expect([again.status, ((await again.json()) as any).designId]).toEqual([200, first.designId]);
    const other = await errorOf(await adopt(job.token, { submissionNo: 1 }, await account('noa@example.com')));
    expect([other.status, other.code]).toEqual([409, 'ALREADY_APPROVED']);
  });

  it('answers 401 ACCOUNT_REQUIRED without a session, and for a cross-site request even with one', async () => {
    const job = await readyJob();
    expect((await errorOf(await adopt(job.token, { submissionNo: 1 }))).code).toBe('ACCOUNT_REQUIRED');
    const session = await account('dana@example.com');
    const crossSite = await errorOf(
      await adopt(job.token, { submissionNo: 1 }, session, { origin: 'https://evil.example' }),
    );
    expect([crossSite.status, crossSite.code]).toEqual([401, 'ACCOUNT_REQUIRED']);
    expect((await errorOf(await adopt(job.token, { submissionNo: 1 }, 'not-a-session'))).code).toBe('ACCOUNT_REQUIRED');
    const fetchedCrossSite = await adopt(job.token, { submissionNo: 1 }, session, {
      'sec-fetch-site': 'cross-site',
      origin: 'null',
    });
    expect((await errorOf(fetchedCrossSite)).code).toBe('ACCOUNT_REQUIRED');
    expect((await getJob(service, job)).status).toBe('ready');
  });

  it("accepts the page's own post, which a no-referrer page sends with Origin: null", async () => {
    const job = await readyJob();
    const session = await account('dana@example.com');
    const response = await adopt(job.token, { submissionNo: 1 }, session, {
      'sec-fetch-site': 'same-origin',
      origin: 'null',
    });
    expect(response.status).toBe(201);
  });

  it('answers 409 SUBMISSION_SUPERSEDED for a submission that is not the current ready one', async () => {
    const job = await readyJob();
    expect((await uploadPng(service, job, png())).status).toBe(200);
    const session = await account('dana@example.com');
    const e = await errorOf(await adopt(job.token, { submissionNo: 1 }, session));
    expect([e.status, e.code]).toEqual([409, 'SUBMISSION_SUPERSEDED']);
    expect(await designRows(job.id)).toHaveLength(0);
    expect((await adopt(job.token, { submissionNo: 2 }, session)).status).toBe(201);
  });

  it('answers 400 INVALID_REQUEST for a missing or malformed submissionNo', async () => {
    const job = await readyJob();
    const session = await account('dana@example.com');
    for (const body of [
      {},
      { submissionNo: '1' },
      { submissionNo: 1.5 },
      { submissionNo: 0 },
      { submissionNo: 1, extra: true },
    ]) {
      const e = await errorOf(await adopt(job.token, body, session));
      expect([JSON.stringify(body), e.status, e.code]).toEqual([JSON.stringify(body), 400, 'INVALID_REQUEST']);
    }
  });

  it('answers 404 for an unknown token and for cancelled, expired or declined jobs', async () => {
    const session = await account('dana@example.com');
    expect((await errorOf(await adopt('zzzzzzzzzzzz', { submissionNo: 1 }, session))).status).toBe(404);
    expect((await errorOf(await adopt('bad', { submissionNo: 1 }, session))).status).toBe(404);
    const cancelled = await readyJob();
    await service.api(`/jobs/${cancelled.id}`, { method: 'DELETE', headers: bearer(cancelled.secret) });
    expect((await errorOf(await adopt(cancelled.token, { submissionNo: 1 }, session))).status).toBe(404);
    const declined = await readyJob();
    await decline(declined.token);
    expect((await errorOf(await adopt(declined.token, { submissionNo: 1 }, session))).status).toBe(404);
    const expired = await readyJob();
    service.clock.advance(7 * DAY);
    expect((await errorOf(await adopt(expired.token, { submissionNo: 1 }, session))).status).toBe(404);
  });

  it('answers 429 past adoptsPerHourPerAccount', async () => {
    await service.close();
    service = await startService({ config: { limits: { ...roomyRateLimits, adoptsPerHourPerAccount: 2 } } });
    const job = await readyJob();
    const session = await account('dana@example.com');
    expect((await adopt(job.token, { submissionNo: 1 }, session)).status).toBe(201);
    expect((await adopt(job.token, { submissionNo: 1 }, session)).status).toBe(200);
    const response = await adopt(job.token, { submissionNo: 1 }, session);
    const e = await errorOf(response);
    expect([e.status, e.code, response.headers.get('retry-after')]).toEqual([429, 'RATE_LIMITED', '3600']);
    expect(e.message).toContain('adoptsPerHourPerAccount');
  });

  it('answers 503 AUTH_UNAVAILABLE with Retry-After 30 when the session store cannot answer', async () => {
    const job = await readyJob();
    const session = await account('dana@example.com');
    await service.db.orm.$client.execute('DROP TABLE sessions');
    const response = await adopt(job.token, { submissionNo: 1 }, session);
    const e = await errorOf(response);
    expect([e.status, e.code, e.body.error.retryable, response.headers.get('retry-after')]).toEqual([
      503,
      'AUTH_UNAVAILABLE',
      true,
      '30',
    ]);
  });

  it('answers 400 LENGTH_OUT_OF_RANGE when the dimensions no longer pass', async () => {
    const job = await readyJob();
    const session = await account('dana@example.com');
    await service.close();
    service = await startService({
      dir: service.dir,
      clock: service.clock,
      config: { products: { bracelet: { lengthRangeMm: { min: 160, max: 280 } } } },
    });
    const e = await errorOf(await adopt(job.token, { submissionNo: 1 }, session));
    expect([e.status, e.code]).toEqual([400, 'LENGTH_OUT_OF_RANGE']);
    expect(await designRows(job.id)).toHaveLength(0);
  });

  it('lets exactly one of two people approving at once win; the other gets 409 ALREADY_APPROVED', async () => {
    for (let round = 0; round < 5; round++) {
      const job = await readyJob();
      const [a, b] = [await account(`a${round}@example.com`), await account(`b${round}@example.com`)];
      const answers = await Promise.all([
        adopt(job.token, { submissionNo: 1 }, a),
        adopt(job.token, { submissionNo: 1 }, b),
      ]);
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 409]);
      const loser: any = await answers.find((r) => r.status === 409)!.json();
      expect(loser.error.code).toBe('ALREADY_APPROVED');
      expect(await designRows(job.id)).toHaveLength(1);
    }
  });

  it('either approves the page submission or discards the design when a passing resubmission races it', async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < 8; round++) {
      const job = await readyJob();
      const session = await account(`racer${round}@example.com`);
      const [approve, upload] = await Promise.all([
        adopt(job.token, { submissionNo: 1 }, session),
        uploadPng(service, job, png()),
      ]);
      const read = await getJob(service, job);
      const designs = await designRows(job.id);
      if (approve.status === 201) {
        // The approval won: the job is locked to submission 1, the late upload changed nothing.
        expect([read.status, designs.length, designs[0]!.submission_no]).toEqual(['approved', 1, 1]);
        expect([200, 409]).toContain(upload.status);
        outcomes.add('approved');
      } else {
        expect((await errorOf(approve)).code).toBe('SUBMISSION_SUPERSEDED');
        expect([read.status, designs.length, read.latestSubmission.no]).toEqual(['ready', 0, 2]);
        outcomes.add('superseded');
      }
    }
    expect(outcomes.size).toBeGreaterThan(0);
  });

  it('keeps the approval when a passing resubmission finishes after it', async () => {
    const job = await readyJob();
    const session = await account('dana@example.com');
    const release = service.pipeline.hold();
    const upload = uploadPng(service, job, png());
    await uploadProcessing(job.id);
    expect((await adopt(job.token, { submissionNo: 1 }, session)).status).toBe(201);
    release();
    const late: any = await (await upload).json();
    expect([late.submission.status, late.submission.approval]).toEqual(['ready', null]);
    const read = await getJob(service, job);
    expect([read.status, read.approval.status]).toEqual(['approved', 'approved']);
    expect((await designRows(job.id))[0]!.submission_no).toBe(1);
  });

  it('discards the design when a passing resubmission lands between the check and the lock', async () => {
    const job = await readyJob();
    const signed = await signedUpAccount(service);
    const release = service.pipeline.hold();
    const upload = uploadPng(service, job, png());
    await uploadProcessing(job.id);
    // Writes run one at a time: the adopt's first write (its rate-limit hit) goes first, then a
    // blocker in the same commit holds the queue until the upload's outcome has lined up behind
    // it. Released, the upload lands before the adopt's lock (queued after its check passed), so
    // the lock must fail. The blocker must be running before the upload is released: a commit
    // still under way when both were queued would otherwise let the outcome queue ahead of it.
    const adopting = service.core.adopt(job.token, 1, signed.accountId);
    let openQueue!: () => void;
    let blocker!: Promise<void>;
    await new Promise<void>((holding) => {
      blocker = service.db.write(
        () =>
          new Promise<void>((resolve) => {
            openQueue = resolve;
            holding();
          }),
      );
    });
    const outcomeQueued = nextWriteQueued(service.db);
    release();
    await outcomeQueued;
    openQueue();
    await blocker;
    const result = await adopting;
    expect(result.ok ? 'approved' : result.error.code).toBe('SUBMISSION_SUPERSEDED');
    expect((await upload).status).toBe(200);
    expect(await designRows(job.id)).toHaveLength(0);
    const read = await getJob(service, job);
    expect([read.status, read.latestSubmission.no, read.approval.status]).toEqual(['ready', 2, 'pending']);
  });

  it('answers a plain form post with 303 redirects: to sign-in on the way to the confirmation, to the design, back to the page', async () => {
    const job = await readyJob();
    const noSession = await adoptForm(job.token, '1');
    expect([noSession.status, noSession.headers.get('location')]).toEqual([
      303,
      `/signin?next=${encodeURIComponent(`/a/${job.token}/approve?n=1`)}`,
    ]);
    const session = await account('dana@example.com');
    const stale = await adoptForm(job.token, '7', session);
    expect([stale.status, stale.headers.get('location')]).toEqual([303, `/a/${job.token}?e=SUBMISSION_SUPERSEDED`]);
    const approved = await adoptForm(job.token, '1', session);
    expect(approved.status).toBe(303);
    expect(approved.headers.get('location')).toMatch(/^\/designs\/[0-9a-f-]{36}$/);
  });
});

/** Resolves once the job's newest upload is in the pipeline (its row reads `processing`). */
async function uploadProcessing(jobId: string): Promise<void> {
  await waitFor('the upload to start processing', async () => {
    const { rows } = await service.db.orm.$client.execute({
      sql: "SELECT count(*) AS n FROM submissions WHERE job_id = ? AND status = 'processing'",
      args: [jobId],
    });
    return Number(rows[0]!.n) > 0;
  });
}

describe('POST /handoff/{token}/decline', () => {
  it('declines a ready job, answers a repeat with 200, and shortens its life to 24 hours', async () => {
    const job = await readyJob();
    service.clock.advance(2 * DAY);
    const first = await decline(job.token);
    expect([first.status, await first.json()]).toEqual([200, { ok: true, status: 'declined' }]);
    const again = await decline(job.token);
    expect([again.status, await again.json()]).toEqual([200, { ok: true, status: 'declined' }]);
    const read = await getJob(service, job);
    expect(read).toMatchObject({ status: 'declined', approval: { status: 'declined' } });
    expect(Date.parse(read.expiresAt)).toBe(service.clock.now() + DAY);
  });

  it('re-arms the same link when a new passing upload lands, with expiry back to creation + 7 days', async () => {
    const job = await readyJob();
    await decline(job.token);
    const upload: any = await (await uploadPng(service, job, png())).json();
    expect(upload.submission.approval).toMatchObject({ status: 'pending' });
    expect(upload.submission.approval.url).toBe(`${SITE}/a/${job.token}`);
    expect((await getJob(service, job)).expiresAt).toBe(job.body.job.expiresAt);
  });

  it('answers 409 JOB_LOCKED on an approved job and 404 otherwise', async () => {
    const job = await readyJob();
    await adopt(job.token, { submissionNo: 1 }, await account('dana@example.com'));
    const locked = await errorOf(await decline(job.token));
    expect([locked.status, locked.code]).toEqual([409, 'JOB_LOCKED']);
    expect((await errorOf(await decline('zzzzzzzzzzzz'))).status).toBe(404);
    const cancelled = await readyJob();
    await service.api(`/jobs/${cancelled.id}`, { method: 'DELETE', headers: bearer(cancelled.secret) });
    expect((await errorOf(await decline(cancelled.token))).status).toBe(404);
  });

  it('answers a plain form post with a 303 back to the page', async () => {
    const job = await readyJob();
    const response = await decline(job.token, true);
    expect([response.status, response.headers.get('location')]).toEqual([303, `/a/${job.token}`]);
    expect((await getJob(service, job)).status).toBe('declined');
  });

  it('allows only POST on both handoff routes', async () => {
    for (const route of ['adopt', 'decline']) {
      const response = await service.api(`/handoff/abcdefghijkm/${route}`);
      expect([response.status, response.headers.get('allow')]).toEqual([405, 'POST']);
    }
  });
});

describe('browser navigation under /api', () => {
  const navigate = (headers: Record<string, string> = {}) =>
    service.fetch('/api/agent/v1/capabilities', { headers: { 'sec-fetch-mode': 'navigate', ...headers } });

  it('sends a browser without a session home', async () => {
    const response = await navigate();
    expect([response.status, response.headers.get('location')]).toEqual([302, '/']);
    const byAccept = await service.fetch('/api/agent/v1/jobs/x', {
      headers: { accept: 'text/html,application/xhtml+xml' },
    });
    expect(byAccept.status).toBe(302);
  });

  it("shows a signed-in person the site's 404 page", async () => {
    const response = await navigate({ cookie: `jds=${await account('dana@example.com')}` });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('text/html');
  });

  it('leaves HTTP clients and non-GET requests alone', async () => {
    expect(
      (await service.fetch('/api/agent/v1/capabilities', { headers: { accept: 'application/json' } })).status,
    ).toBe(200);
    expect((await service.fetch('/api/agent/v1/capabilities')).status).toBe(200);
    const post = await service.fetch('/api/agent/v1/capabilities', {
      method: 'POST',
      headers: { 'sec-fetch-mode': 'navigate' },
    });
    expect(post.status).toBe(405);
  });
});
