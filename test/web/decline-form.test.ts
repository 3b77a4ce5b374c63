import { describe, expect, it } from 'vitest';
import { HOUR } from '../../core/clock.ts';
import { declineChoices } from '../../core/handoff/decline-reason.ts';
import { escapeHtml } from '../../web/html.ts';
import { he } from '../../web/strings.ts';
import { bearer, getJob, jsonInit, openJob, roomyRateLimits, uploadPng, type OpenedJob } from '../helpers/flows.ts';
import { makePng } from '../helpers/png.ts';
import { signedUpAccount } from '../helpers/site.ts';
import { removeDir, servicePerTest, SITE, startService, type TestService } from '../helpers/service.ts';

/**
 * The approval page's own decline form (`POST /a/{token}/decline`): the person's optional reason,
 * stored with the decline and shown to the agent as `approval.declineReason`.
 */

const FORM = 'application/x-www-form-urlencoded';
const HOSTILE = `<script>alert(1)</script> & "quoted" 'too' </textarea><img src=x onerror=alert(2)>`;

const service = servicePerTest({ config: { limits: roomyRateLimits } });
let seed = 1;
const png = () => makePng({ width: 300, height: 300, seed: seed++ });

type ReadyJob = OpenedJob & { token: string };

async function readyJob(on: TestService = service): Promise<ReadyJob> {
  const job = await openJob(on);
  const response = await uploadPng(on, job, png());
  expect(response.status).toBe(200);
  const { submission }: any = await response.json();
  return { ...job, token: submission.approval.url.split('/a/')[1] };
}

const declineForm = (
  token: string,
  fields: Record<string, string>,
  headers: Record<string, string> = { 'sec-fetch-site': 'same-origin', origin: 'null' },
  on: TestService = service,
) =>
  on.fetch(`/a/${token}/decline`, {
    method: 'POST',
    headers: { 'content-type': FORM, ...headers },
    body: new URLSearchParams(fields).toString(),
  });

const pageHtml = async (path: string, on: TestService = service) => {
  const response = await on.fetch(path);
  expect(response.status).toBe(200);
  return response.text();
};

async function storedReason(jobId: string, on: TestService = service): Promise<unknown> {
  const { rows } = await on.db.orm.$client.execute({
    sql: 'SELECT decline_reason FROM jobs WHERE id = ?',
    args: [jobId],
  });
  const value = rows[0]!.decline_reason;
  return value === null ? null : JSON.parse(String(value));
}

const submissionOf = async (job: OpenedJob, no: number) =>
  ((await (await service.api(`/jobs/${job.id}/submissions/${no}`, { headers: bearer(job.secret) })).json()) as any)
    .submission;

describe('the decline form on the approval page', () => {
  it('offers an optional reason: a fieldset of choices, a labelled text box limited to the configured length, then the button', async () => {
    const job = await readyJob();
    const html = await pageHtml(`/a/${job.token}`);
    const start = html.indexOf('<form class="decline-form"');
    const form = html.slice(start, html.indexOf('</form>', start));
    expect(form).toContain(`<form class="decline-form" method="post" action="/a/${job.token}/decline">`);
    expect(form).toMatch(/<fieldset class="choices">\n<legend>[^<]+<\/legend>/);
    expect(form).toContain(escapeHtml(he.approval.declineReason.legend));
    const radios = [...form.matchAll(/<input type="radio" name="choice" value="([a-z]*)"( checked)?>/g)];
    expect(radios.map((r) => r[1])).toEqual(['', ...declineChoices]);
    expect(radios.filter((r) => r[2]).map((r) => r[1])).toEqual(['']);
    for (const code of declineChoices) expect(form).toContain(he.approval.declineReason.choices[code]);
    expect(form).toContain(`<label for="decline-text">${he.approval.declineReason.textLabel}</label>`);
    expect(form).toMatch(
      /<textarea id="decline-text" name="text" rows="4" maxlength="500" dir="auto" aria-describedby="decline-text-hint"><\/textarea>/,
    );
    expect(form).toContain(`<p class="hint" id="decline-text-hint">${he.approval.declineReason.textHint('500')}</p>`);
    expect(form).toContain(`<button type="submit" class="btn btn-secondary">${he.approval.decline}</button>`);
    expect(html).not.toContain(`/handoff/${job.token}/decline`);
  });

  it('declines with a choice and words: 303 to the page; the agent reads exactly those words; the page shows them escaped', async () => {
    const job = await readyJob();
    const response = await declineForm(job.token, { choice: 'look', text: `  ${HOSTILE}\r\nשורה שנייה  ` });
    expect([response.status, response.headers.get('location')]).toEqual([303, `/a/${job.token}`]);

    const words = `${HOSTILE}\nשורה שנייה`;
    const read = await getJob(service, job);
    expect(read.status).toBe('declined');
    expect(read.approval).toMatchObject({ status: 'declined', declineReason: { choice: 'look', text: words } });
    expect((await submissionOf(job, 1)).approval.declineReason).toEqual({ choice: 'look', text: words });
    expect(await storedReason(job.id)).toEqual({ choice: 'look', text: words });

    const html = await pageHtml(`/a/${job.token}`);
    expect(html).toContain(he.approval.declinedHeading);
    expect(html).toContain(
      `<p class="decline-reason"><strong>${he.approval.declineReason.yours}</strong> ${he.approval.declineReason.choices.look}<bdi class="decline-text">${escapeHtml(words)}</bdi></p>`,
    );
    expect(html).not.toMatch(/<script|<img src=x|<\/textarea>/i);
    expect(html).not.toContain('class="decline-form"');
  });

  it('reads declineReason null without a reason, after the API decline, and while pending', async () => {
    const pending = await readyJob();
    expect((await getJob(service, pending)).approval).toMatchObject({ status: 'pending', declineReason: null });

    const empty = await readyJob();
    expect((await declineForm(empty.token, { choice: '', text: ' \r\n ' })).status).toBe(303);
    expect((await getJob(service, empty)).approval).toMatchObject({ status: 'declined', declineReason: null });
    expect(await storedReason(empty.id)).toBeNull();
    expect(await pageHtml(`/a/${empty.token}`)).not.toContain('class="decline-reason"');

    const api = await readyJob();
    const answer = await service.api(`/handoff/${api.token}/decline`, jsonInit({ choice: 'price', text: 'x' }));
    expect([answer.status, await answer.json()]).toEqual([200, { ok: true, status: 'declined' }]);
    expect((await getJob(service, api)).approval).toMatchObject({ status: 'declined', declineReason: null });

    const apiForm = await readyJob();
    const posted = await service.api(`/handoff/${apiForm.token}/decline`, {
      method: 'POST',
      headers: { 'content-type': FORM, origin: SITE },
      body: 'choice=price&text=x',
    });
    expect([posted.status, posted.headers.get('location')]).toEqual([303, `/a/${apiForm.token}`]);
    expect((await getJob(service, apiForm)).approval).toMatchObject({ status: 'declined', declineReason: null });
  });

  it('gives only a choice, or only words', async () => {
    const chosen = await readyJob();
    await declineForm(chosen.token, { choice: 'changes' });
    expect((await getJob(service, chosen)).approval.declineReason).toEqual({ choice: 'changes', text: null });
    const html = await pageHtml(`/a/${chosen.token}`);
    expect(html).toContain(`${he.approval.declineReason.choices.changes}</p>`);

    const written = await readyJob();
    await declineForm(written.token, { text: 'too wide' });
    expect((await getJob(service, written)).approval.declineReason).toEqual({ choice: null, text: 'too wide' });
  });

  it('refuses words over the configured length: nothing declined or stored, and the page names the limit', async () => {
    const job = await readyJob();
    const response = await declineForm(job.token, { choice: 'price', text: 'א'.repeat(501) });
    expect([response.status, response.headers.get('location')]).toEqual([
      303,
      `/a/${job.token}?e=DECLINE_TEXT_TOO_LONG`,
    ]);
    const read = await getJob(service, job);
    expect(read).toMatchObject({ status: 'ready', approval: { status: 'pending', declineReason: null } });
    expect(await storedReason(job.id)).toBeNull();
    const html = await pageHtml(response.headers.get('location')!);
    expect(html).toContain(he.approval.errors.DECLINE_TEXT_TOO_LONG('500'));
    expect(he.approval.errors.DECLINE_TEXT_TOO_LONG('500')).toContain('500');
    expect(html).toContain('aria-describedby="decline-text-hint" aria-invalid="true"');

    // Exactly the limit, with a line break the browser sent as CRLF (counted as one, as maxlength counts it).
    const exactly = `${'א'.repeat(250)}\r\n${'ב'.repeat(249)}`;
    expect((await declineForm(job.token, { text: exactly })).headers.get('location')).toBe(`/a/${job.token}`);
    expect((await getJob(service, job)).approval.declineReason.text).toBe(exactly.replace('\r\n', '\n'));
  });

  it('refuses an unknown choice rather than dropping it: nothing declined, the page explains', async () => {
    const job = await readyJob();
    const response = await declineForm(job.token, { choice: 'cheaper', text: 'words' });
    expect(response.headers.get('location')).toBe(`/a/${job.token}?e=DECLINE_CHOICE_UNKNOWN`);
    expect((await getJob(service, job)).status).toBe('ready');
    expect(await storedReason(job.id)).toBeNull();
    expect(await pageHtml(response.headers.get('location')!)).toContain(he.approval.errors.DECLINE_CHOICE_UNKNOWN);
  });

  it('refuses a post from another site (403), and the job stays ready', async () => {
    const job = await readyJob();
    const foreign: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site', origin: SITE },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
      // A sandboxed frame or a data: page on any site posts with Origin null.
      { origin: 'null' },
    ];
    for (const headers of foreign) {
      const response = await declineForm(job.token, { choice: 'price', text: 'forged' }, headers);
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect(await response.text()).toContain(he.crossSite.title);
    }
    expect((await getJob(service, job)).status).toBe('ready');
    expect(await storedReason(job.id)).toBeNull();
    // The page's own post: its real Origin (the page sends its referrer to its own origin), or
    // Sec-Fetch-Site vouching for it.
    const page = await service.fetch(`/a/${job.token}`);
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    expect((await declineForm(job.token, { text: 'mine' }, { origin: new URL(SITE).origin })).status).toBe(303);
    expect((await getJob(service, job)).approval.declineReason).toEqual({ choice: null, text: 'mine' });
    const vouched = { 'sec-fetch-site': 'same-origin', origin: 'null' };
    expect((await declineForm(job.token, { text: 'again' }, vouched)).status).toBe(303);
  });

  it('declines only the version the page showed: a page left open while a newer one passed declines nothing and says so', async () => {
    const job = await readyJob();
    const html = await pageHtml(`/a/${job.token}`);
    expect(html).toContain('<input type="hidden" name="submissionNo" value="1">');
    expect((await uploadPng(service, job, png())).status).toBe(200);

    const stale = await declineForm(job.token, { submissionNo: '1', choice: 'price', text: 'too dear' });
    expect([stale.status, stale.headers.get('location')]).toEqual([303, `/a/${job.token}?e=DECLINE_SUPERSEDED`]);
    const after = await getJob(service, job);
    expect([after.status, after.latestSubmission.no, after.approval.status]).toEqual(['ready', 2, 'pending']);
    expect(await storedReason(job.id)).toBeNull();
    const shown = await pageHtml(stale.headers.get('location')!);
    expect(shown).toContain(escapeHtml(he.approval.errors.DECLINE_SUPERSEDED));
    expect(shown).toContain('<input type="hidden" name="submissionNo" value="2">');

    expect((await declineForm(job.token, { submissionNo: '2', choice: 'price' })).headers.get('location')).toBe(
      `/a/${job.token}`,
    );
    expect((await getJob(service, job)).approval).toMatchObject({
      status: 'declined',
      declineReason: { choice: 'price' },
    });
    // Repeating the decline of the version declined is still a repeat; the older version is not.
    expect((await declineForm(job.token, { submissionNo: '2' })).headers.get('location')).toBe(`/a/${job.token}`);
    expect((await declineForm(job.token, { submissionNo: '1' })).headers.get('location')).toBe(
      `/a/${job.token}?e=DECLINE_SUPERSEDED`,
    );
  });

  it('the API route takes the version shown too, as JSON or a form field, and refuses a stale or malformed one', async () => {
    const job = await readyJob();
    expect((await uploadPng(service, job, png())).status).toBe(200);
    const stale = await service.api(`/handoff/${job.token}/decline`, jsonInit({ submissionNo: 1 }));
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as any).error.code).toBe('SUBMISSION_SUPERSEDED');
    const malformed = await service.api(`/handoff/${job.token}/decline`, jsonInit({ submissionNo: 'two' }));
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as any).error.code).toBe('INVALID_REQUEST');
    const formPost = await service.api(`/handoff/${job.token}/decline`, {
      method: 'POST',
      headers: { 'content-type': FORM },
      body: 'submissionNo=1',
    });
    expect(formPost.headers.get('location')).toBe(`/a/${job.token}?e=SUBMISSION_SUPERSEDED`);
    expect((await getJob(service, job)).status).toBe('ready');

    const current = await service.api(`/handoff/${job.token}/decline`, jsonInit({ submissionNo: 2 }));
    expect([current.status, await current.json()]).toEqual([200, { ok: true, status: 'declined' }]);
  });

  it('a new passing submission re-arms the link to pending without the old reason', async () => {
    const job = await readyJob();
    await declineForm(job.token, { choice: 'size', text: 'smaller please' });
    const upload: any = await (await uploadPng(service, job, png())).json();
    expect(upload.submission.approval).toMatchObject({ status: 'pending', declineReason: null });
    expect((await getJob(service, job)).approval).toMatchObject({ status: 'pending', declineReason: null });
    expect((await submissionOf(job, 1)).approval).toBeNull();
    expect(await storedReason(job.id)).toBeNull();
  });

  it('a repeated decline with a reason replaces it without restarting the 24 hours; one without a reason leaves it', async () => {
    const job = await readyJob();
    await declineForm(job.token, { choice: 'price' });
    const first = await getJob(service, job);
    service.clock.advance(HOUR);

    expect((await declineForm(job.token, { choice: 'other', text: 'changed my mind' })).status).toBe(303);
    const second = await getJob(service, job);
    expect(second.approval.declineReason).toEqual({ choice: 'other', text: 'changed my mind' });
    expect([second.expiresAt, second.approval.expiresAt]).toEqual([first.expiresAt, first.approval.expiresAt]);

    expect((await service.api(`/handoff/${job.token}/decline`, { method: 'POST' })).status).toBe(200);
    expect((await declineForm(job.token, {})).status).toBe(303);
    expect((await getJob(service, job)).approval.declineReason).toEqual({ choice: 'other', text: 'changed my mind' });
  });

  it('answers like the API route otherwise: an unknown link and an approved job go back to the page with the code', async () => {
    const unknown = await declineForm('zzzzzzzzzzzz', { choice: 'price' });
    expect(unknown.headers.get('location')).toBe('/a/zzzzzzzzzzzz?e=NOT_FOUND');
    const odd = await declineForm('%3Cscript%3E', {});
    expect(odd.headers.get('location')).toBe('/a/%3Cscript%3E?e=NOT_FOUND');

    const job = await readyJob();
    const signed = await signedUpAccount(service);
    const adopt = await service.api(
      `/handoff/${job.token}/adopt`,
      jsonInit({ submissionNo: 1 }, { cookie: `jds=${signed.sessionToken}` }),
    );
    expect(adopt.status).toBe(201);
    const locked = await declineForm(job.token, { choice: 'price', text: 'late' });
    expect(locked.headers.get('location')).toBe(`/a/${job.token}?e=JOB_LOCKED`);
    expect(await storedReason(job.id)).toBeNull();
  });

  it('refuses a form over the site forms limit with 413', async () => {
    const job = await readyJob();
    const response = await declineForm(job.token, { text: 'x'.repeat(20_000) });
    expect(response.status).toBe(413);
    expect((await getJob(service, job)).status).toBe('ready');
  });
});

describe('a configured site.declineReasonMaxChars', () => {
  it('sets the text box maxlength, the hint, the refusal and its explanation', async () => {
    const own = await startService({ config: { limits: roomyRateLimits, site: { declineReasonMaxChars: 40 } } });
    try {
      const job = await readyJob(own);
      const html = await pageHtml(`/a/${job.token}`, own);
      expect(html).toContain('maxlength="40"');
      expect(html).toContain(he.approval.declineReason.textHint('40'));

      const refused = await declineForm(job.token, { text: 'y'.repeat(41) }, undefined, own);
      expect(refused.headers.get('location')).toBe(`/a/${job.token}?e=DECLINE_TEXT_TOO_LONG`);
      expect(await pageHtml(refused.headers.get('location')!, own)).toContain(
        he.approval.errors.DECLINE_TEXT_TOO_LONG('40'),
      );
      expect((await getJob(own, job)).status).toBe('ready');

      expect((await declineForm(job.token, { text: 'y'.repeat(40) }, undefined, own)).status).toBe(303);
      expect((await getJob(own, job)).approval.declineReason).toEqual({ choice: null, text: 'y'.repeat(40) });
    } finally {
      await own.close();
      removeDir(own.dir);
    }
  });
});
