import { randomUUID } from 'node:crypto';
import * as nodeCrypto from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DAY, ManualClock } from '../core/clock.ts';
import { APPROVAL_TOKEN_PATTERN, BASE58, newApprovalToken } from '../core/handoff/approval-token.ts';
import { sha256Hex, secretMatches } from '../core/jobs/secrets.ts';
import { jsonLogger, silentLogger } from '../core/logger.ts';
import { cryptoRandomness, type Randomness } from '../core/randomness.ts';
import { API_BASE_PATH } from '../core/urls.ts';
import { buildService } from '../http/service.ts';
import { he } from '../web/strings.ts';
import {
  bearer,
  braceletBody,
  jsonInit,
  openJob,
  roomyRateLimits,
  uploadPng,
  type OpenedJob,
} from './helpers/flows.ts';
import { makePng } from './helpers/png.ts';
import { removeDir, SITE, startService, type TestService } from './helpers/service.ts';
import { ScriptedPipeline } from './helpers/scripted-pipeline.ts';

// The real timingSafeEqual, watched: the secret check must go through it.
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

const FORM = 'application/x-www-form-urlencoded';
const PASSWORD = 'correct horse battery';
const EVIL = 'https://evil.example';
const SCRIPT = '<script>alert(1)</script>';
const IMG = '"><img/src=x/onerror=alert(1)>';
const roomy = { limits: roomyRateLimits };

let service: TestService;
let lines: string[] = [];
beforeEach(async () => {
  lines = [];
  service = await startService({ config: roomy, log: jsonLogger((line) => lines.push(line)) });
});
afterEach(async () => {
  await service.close();
  removeDir(service.dir);
});

let seed = 1;
async function readyJob(body: unknown = braceletBody): Promise<OpenedJob & { token: string }> {
  const job = await openJob(service, body);
  const response = await uploadPng(service, job, makePng({ width: 300, height: 300, seed: seed++ }));
  expect(response.status).toBe(200);
  return { ...job, token: ((await response.json()) as any).submission.approval.url.split('/a/')[1] };
}

async function signUp(email: string): Promise<string> {
  const signed = await service.core.signUp({ email, password: PASSWORD, clientAddress: '192.0.2.1' });
  if (!signed.ok) throw new Error(signed.error.message);
  return signed.value.sessionToken;
}

const send = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}, session?: string) =>
  service.fetch(path, { ...init, headers: { ...(session ? { cookie: `jds=${session}` } : {}), ...init.headers } });
const postForm = (path: string, fields: Record<string, string>, session?: string, headers = {}) =>
  send(
    path,
    { method: 'POST', headers: { 'content-type': FORM, ...headers }, body: new URLSearchParams(fields).toString() },
    session,
  );
const postJson = (path: string, body: unknown, session?: string, headers = {}) =>
  send(
    path,
    { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) },
    session,
  );

/** Status, headers without the per-request id, and body: what two answers must share to say the same. */
async function answerOf(response: Response, token?: string) {
  // The account's own bucket counts every probe alike, whatever the token: its remaining count moves
  // by one per request and says nothing of the token, so it is compared as a shape, not a number.
  const remaining = (name: string, value: string) =>
    name === 'ratelimit' ? value.replace(/;r=\d+/g, ';r={r}') : value;
  const headers = [...response.headers]
    .filter(([name]) => name !== 'x-request-id')
    .map(([name, value]) => [name, token ? value.replaceAll(encodeURIComponent(token), '{token}') : value])
    .map(([name, value]) => [name!, remaining(name!, value!)]);
  return { status: response.status, headers, body: await response.text() };
}

const dbRows = async (sql: string, args: string[] = []) =>
  (await service.db.orm.$client.execute({ sql, args })).rows.map((row) => ({ ...row }));

describe('secret comparison', () => {
  it('secretMatches compares two SHA-256 digests with timingSafeEqual, whatever was presented', () => {
    const compare = vi.mocked(nodeCrypto.timingSafeEqual);
    const secret = `ajs_${'A'.repeat(43)}`;
    const stored = sha256Hex(secret);
    const cases: [string | undefined, string | undefined, boolean][] = [
      [secret, stored, true],
      [`ajs_${'A'.repeat(42)}B`, stored, false],
      [secret.slice(0, -1), stored, false],
      [`${secret}A`, stored, false],
      ['x'.repeat(10_000), stored, false],
      ['', stored, false],
      [undefined, stored, false],
      [secret, undefined, false],
      [undefined, undefined, false],
    ];
    for (const [presented, hash, expected] of cases) {
      compare.mockClear();
      expect(secretMatches(presented, hash), `${presented?.length} chars vs ${hash ? 'a job' : 'no job'}`).toBe(
        expected,
      );
      // One comparison of two 32-byte digests, also for an unknown job and a missing secret.
      expect(compare).toHaveBeenCalledTimes(1);
      const [a, b] = compare.mock.calls[0]! as unknown as [Buffer, Buffer];
      expect([a.length, b.length]).toEqual([32, 32]);
    }
  });

  it('the job routes check the secret through it, for unknown jobs too', async () => {
    const job = await openJob(service);
    const compare = vi.mocked(nodeCrypto.timingSafeEqual);
    for (const [id, headers] of [
      [job.id, bearer(job.secret)],
      [job.id, bearer('ajs_wrong')],
      [randomUUID(), bearer(job.secret)],
    ] as const) {
      compare.mockClear();
      await service.api(`/jobs/${id}`, { headers });
      expect(compare).toHaveBeenCalledTimes(1);
    }
  });
});

describe('job routes say nothing about which jobs exist', () => {
  it("another job's secret, an unknown id and a malformed id get identical answers, headers included, on every job route", async () => {
    const job = await readyJob();
    const other = await openJob(service);
    const routes: [string, string][] = [
      ['GET', ''],
      ['HEAD', ''],
      ['DELETE', ''],
      ['POST', '/submissions'],
      ['GET', '/submissions'],
      ['GET', '/submissions/1'],
      ['HEAD', '/submissions/1'],
      ['GET', '/submissions/1/cutouts.svg'],
      ['GET', '/submissions/1/preview.svg'],
      ['HEAD', '/submissions/1/preview.svg'],
    ];
    for (const [method, path] of routes) {
      const answers = [];
      for (const [id, secret] of [
        [job.id, other.secret],
        [randomUUID(), job.secret],
        ['not-a-job', job.secret],
        [job.id.replaceAll('-', ''), job.secret],
      ] as const) {
        const init: RequestInit = { method, headers: { ...bearer(secret), 'content-type': 'image/png' } };
        if (method === 'POST') init.body = makePng({ width: 300, height: 300, seed: 99 }) as BodyInit;
        answers.push(await answerOf(await service.api(`/jobs/${id}${path}`, init)));
      }
      const where = `${method} /jobs/{jobId}${path}`;
      expect(answers[0]!.status, where).toBe(path === '/submissions' && method === 'GET' ? 405 : 404);
      for (const answer of answers.slice(1)) expect(answer, where).toEqual(answers[0]);
    }
    expect(service.pipeline.runs).toBe(1);
    const [row] = await dbRows('SELECT status FROM jobs WHERE id = ?', [job.id]);
    expect(row!.status).toBe('ready');
  });
});

describe('logs and answers hold no secrets', () => {
  it('neither the log nor any answer holds the job secret, cookie, password, token or key, also while the database fails', async () => {
    const email = 'dana@example.com';
    const key = `idem-${randomUUID()}`;
    const opened = await service.api('/jobs', jsonInit(braceletBody, { 'idempotency-key': key }));
    const created: any = await opened.json();
    const job = { id: created.job.id, secret: created.credentials.jobSecret as string, body: created };
    const upload = await uploadPng(service, job, makePng({ width: 300, height: 300, seed: 41 }));
    const token: string = ((await upload.json()) as any).submission.approval.url.split('/a/')[1];
    const session = await signUp(email);

    const attempts = async () => {
      const answers: Response[] = [];
      const auth = bearer(job.secret);
      answers.push(await service.api('/jobs', jsonInit(braceletBody, { 'idempotency-key': key })));
      answers.push(await service.api('/jobs', jsonInit({ ...braceletBody, widthMm: 1 }, { 'idempotency-key': key })));
      answers.push(await service.api(`/jobs/${job.id}`, { headers: auth }));
      answers.push(await service.api(`/jobs/${job.id}`, { headers: bearer(`${job.secret}x`) }));
      answers.push(await service.api(`/jobs/${job.secret}`, { headers: auth }));
      answers.push(await uploadPng(service, job, makePng({ width: 300, height: 300, seed: 42 })));
      answers.push(await service.api(`/jobs/${job.id}/submissions/1`, { headers: auth }));
      answers.push(await postJson(`${API_BASE_PATH}/handoff/${token}/adopt`, { submissionNo: 1 }, session));
      answers.push(await postJson(`${API_BASE_PATH}/handoff/${token}/adopt`, { submissionNo: 1 }, `${session}x`));
      answers.push(await postForm(`${API_BASE_PATH}/handoff/${token}/decline`, {}, session, { origin: SITE }));
      answers.push(await send(`/a/${token}`, {}, session));
      answers.push(await postForm('/signin', { email, password: PASSWORD }, undefined, { origin: SITE }));
      answers.push(await postForm('/signin', { email, password: `${PASSWORD}!` }, undefined, { origin: SITE }));
      answers.push(await postForm('/signout', {}, session, { origin: SITE }));
      answers.push(await send('/designs/x', {}, session));
      return answers;
    };
    const healthy = await attempts();
    service.db.close();
    const failing = await attempts();
    expect(failing.some((r) => r.status === 500)).toBe(true);
    expect(lines.some((line) => line.includes('"unexpected error"'))).toBe(true);

    const log = lines.join('\n');
    const answers: string[] = [];
    for (const response of [...healthy, ...failing]) {
      // A new session's own Set-Cookie is the one place a cookie value belongs.
      answers.push(
        JSON.stringify([...response.headers].filter(([name]) => name !== 'set-cookie')),
        await response.text(),
      );
    }
    const secrets = [
      ['job secret', job.secret.slice(4)],
      ['session cookie', session],
      ['password', PASSWORD],
      ['Idempotency-Key', key],
    ];
    for (const [what, value] of secrets)
      expect(answers.join('\n').includes(value!), `answer holds the ${what}`).toBe(false);
    for (const [what, value] of [...secrets, ['approval token', token], ['email', email]]) {
      expect(log.includes(value!), `log holds the ${what}`).toBe(false);
    }
    expect(log).not.toMatch(/authorization|cookie/i);
  });
});

describe('markup in echoed fields is escaped on every page', () => {
  const hostileEmail = `${IMG}${SCRIPT}@example.com`;
  const escapedEmail = '&quot;&gt;&lt;img/src=x/onerror=alert(1)&gt;&lt;script&gt;alert(1)&lt;/script&gt;@example.com';
  const attribution = { agentPlatform: SCRIPT, integration: '"><img src=x onerror=alert(1)>', skillVersion: IMG };

  function expectEscaped(html: string, where: string, emailShown = true): void {
    expect(html, where).not.toMatch(/<script|<img[ /]src=x|<svg/i);
    expect(html, where).not.toContain('onerror=alert(1)>');
    if (emailShown) expect(html, where).toContain(escapedEmail);
  }

  it("the approver's email and the agent's attribution stay text on the approval page in each state, the design page and the 404 page", async () => {
    const person = await signUp(hostileEmail);
    const someoneElse = await signUp(`${SCRIPT}@other.example`);
    const declined = await readyJob({ ...braceletBody, attribution });
    const approved = await readyJob({ ...braceletBody, attribution });
    const pending = await readyJob({ ...braceletBody, attribution });
    expect((await send(`${API_BASE_PATH}/handoff/${declined.token}/decline`, { method: 'POST' })).status).toBe(200);
    const adopt = await postJson(`${API_BASE_PATH}/handoff/${approved.token}/adopt`, { submissionNo: 1 }, person);
    expect(adopt.status).toBe(201);
    const { designId } = (await adopt.json()) as any;

    const pages: [string, string, string, string | undefined][] = [
      ['pending', `/a/${pending.token}`, he.approval.pendingHeading, person],
      ['declined', `/a/${declined.token}`, he.approval.declinedHeading, person],
      ['approved by the viewer', `/a/${approved.token}`, he.approval.approvedByYou, person],
      ['design', `/designs/${designId}`, he.design.download, person],
      ['404', '/a/zzzzzzzzzzzz', he.notFound.title, person],
      ['signed in already', '/signin', he.signIn.alreadySignedIn, person],
    ];
    for (const [where, path, marker, session] of pages) {
      const html = await (await send(path, {}, session)).text();
      expect(html, where).toContain(marker);
      expectEscaped(html, where);
    }
    const seenBySomeoneElse = await (await send(`/a/${approved.token}`, {}, someoneElse)).text();
    expect(seenBySomeoneElse).toContain(he.approval.approvedBySomeone);
    expect(seenBySomeoneElse).toContain('&lt;script&gt;alert(1)&lt;/script&gt;@other.example');
    expectEscaped(seenBySomeoneElse, 'approved by someone else', false);
  });

  it('the email and the next path typed into the sign-in and sign-up forms come back escaped', async () => {
    const next = `/a/${IMG}`;
    const escapedNext = '/a/&quot;&gt;&lt;img/src=x/onerror=alert(1)&gt;';
    for (const path of ['/signin', '/signup']) {
      const shown = await (await send(`${path}?next=${encodeURIComponent(next)}`)).text();
      expect(shown, path).toContain(`<input type="hidden" name="next" value="${escapedNext}">`);
      expectEscaped(shown, path, false);
      const refused = await postForm(path, { email: hostileEmail, password: 'short', next }, undefined, {
        origin: SITE,
      });
      expect(refused.status, path).toBe(400);
      const html = await refused.text();
      expect(html, path).toContain(`value="${escapedEmail}"`);
      expect(html, path).toContain(`value="${escapedNext}"`);
      expectEscaped(html, `refused ${path}`);
    }
  });
});

describe('cross-site form posts', () => {
  const crossSite = [
    { origin: EVIL },
    { 'sec-fetch-site': 'cross-site', origin: 'null' },
    { 'sec-fetch-site': 'same-site' },
  ];

  it('approve, sign-up and sign-out posted from another site are refused and change nothing', async () => {
    const job = await readyJob();
    const session = await signUp('dana@example.com');
    for (const headers of crossSite) {
      const where = JSON.stringify(headers);
      const adopt = await postForm(
        `${API_BASE_PATH}/handoff/${job.token}/adopt`,
        { submissionNo: '1' },
        session,
        headers,
      );
      // Treated as having no session: off to sign in, nothing approved.
      expect([adopt.status, adopt.headers.get('location')], where).toEqual([
        303,
        `/signin?next=${encodeURIComponent(`/a/${job.token}/approve?n=1`)}`,
      ]);
      const signUpPost = await postForm(
        '/signup',
        { email: 'mallory@example.com', password: PASSWORD },
        undefined,
        headers,
      );
      const signOut = await postForm('/signout', {}, session, headers);
      for (const [what, response] of [
        ['sign-up', signUpPost],
        ['sign-out', signOut],
      ] as const) {
        expect(response.status, `${what} ${where}`).toBe(403);
        expect(response.headers.get('set-cookie'), `${what} ${where}`).toBeNull();
        expect(await response.text()).toContain(he.crossSite.title);
      }
    }
    expect(await dbRows('SELECT status, approval_status FROM jobs WHERE id = ?', [job.id])).toEqual([
      { status: 'ready', approval_status: 'pending' },
    ]);
    expect(await dbRows('SELECT id FROM designs')).toEqual([]);
    expect((await dbRows('SELECT email FROM accounts')).map((row) => row.email)).toEqual(['dana@example.com']);
    expect(await service.core.sessionAccount(session)).toMatchObject({
      ok: true,
      value: { email: 'dana@example.com' },
    });
  });

  it('decline carries no ambient authority: the cookie plays no part, so another site can do no more than the token allows', async () => {
    // decisions §5: decline needs only the token. A page that knows the token could post it
    // directly, so refusing cross-site declines would protect nothing; the cookie must not matter.
    const session = await signUp('dana@example.com');
    const withCookie = await readyJob();
    const withoutCookie = await readyJob();
    const a = await postForm(`${API_BASE_PATH}/handoff/${withCookie.token}/decline`, {}, session, { origin: EVIL });
    const b = await postForm(`${API_BASE_PATH}/handoff/${withoutCookie.token}/decline`, {}, undefined, {
      origin: EVIL,
    });
    expect(await answerOf(a, withCookie.token)).toEqual(await answerOf(b, withoutCookie.token));
    const unknown = await postForm(`${API_BASE_PATH}/handoff/zzzzzzzzzzzz/decline`, {}, session, { origin: EVIL });
    expect(unknown.headers.get('location')).toBe('/a/zzzzzzzzzzzz?e=NOT_FOUND');
    expect(await dbRows(`SELECT count(*) AS n FROM jobs WHERE status = 'declined'`)).toEqual([{ n: 2 }]);
  });
});

describe('approval tokens', () => {
  it('are 12 base58 characters, all different, every symbol about equally likely', () => {
    const tokens = Array.from({ length: 3000 }, () => newApprovalToken(cryptoRandomness));
    expect(tokens.every((token) => APPROVAL_TOKEN_PATTERN.test(token))).toBe(true);
    expect(new Set(tokens).size).toBe(tokens.length);
    expect(BASE58).toHaveLength(58);
    expect(BASE58).not.toMatch(/[0OIl]/);
    const counts = new Map<string, number>();
    for (const char of tokens.join('')) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect([...counts.keys()].sort().join('')).toBe([...BASE58].sort().join(''));
    // 36,000 symbols: about 621 each (σ ≈ 25); a modulo bias would push the first symbols up by a quarter.
    for (const [char, n] of counts) {
      expect(n, char).toBeGreaterThan(500);
      expect(n, char).toBeLessThan(750);
    }
  });

  it('come only from the injected Randomness, which production wires to the CSPRNG', async () => {
    const fixed = (byte: number): Randomness => ({ uuid: randomUUID, bytes: (n) => new Uint8Array(n).fill(byte) });
    expect(newApprovalToken(fixed(0))).toBe('111111111111');
    expect(newApprovalToken(fixed(57))).toBe('zzzzzzzzzzzz');

    // Two services on the same seeded Randomness hand out the same link: no other source of chance.
    const links = [];
    for (const run of [1, 2]) {
      const dir = join(service.dir, `seeded-${run}`);
      const started = await buildService(
        {
          port: 8787,
          siteUrl: SITE,
          databaseUrl: `file:${dir}/test.db`,
          databaseAuthToken: undefined,
          configFile: undefined,
          apiEnabled: true,
          trustProxy: false,
        },
        { clock: new ManualClock(), random: seeded(7), log: silentLogger, pipeline: new ScriptedPipeline().run },
      );
      const request = (path: string, init: RequestInit) =>
        started.app.request(`${SITE}${API_BASE_PATH}${path}`, init, {
          incoming: { socket: { remoteAddress: '192.0.2.9' } },
        });
      const opened: any = await (await request('/jobs', jsonInit(braceletBody))).json();
      const upload = await request(`/jobs/${opened.job.id}/submissions`, {
        method: 'POST',
        headers: { 'content-type': 'image/png', ...bearer(opened.credentials.jobSecret) },
        body: makePng({ width: 300, height: 300 }) as BodyInit,
      });
      links.push(((await upload.json()) as any).submission.approval.url);
      await started.close();
    }
    expect(links[0]).toBe(links[1]);

    const sources = ['core', 'http', 'web', 'mcp', 'db'].flatMap((dir) => tsFiles(dir)).concat(['server.ts']);
    const random = /randomBytes|randomUUID|getRandomValues|randomInt|Math\.random/;
    expect(sources.filter((file) => random.test(readFileSync(file, 'utf8')))).toEqual(['core/randomness.ts']);
    for (const entry of ['server.ts', 'mcp/stdio.ts']) {
      expect(readFileSync(entry, 'utf8'), entry).toMatch(/buildService\([^)]*random: cryptoRandomness/s);
    }
  });

  it('an unknown link answers exactly like a cancelled or expired one, on the page and on both handoff routes', async () => {
    const session = await signUp('dana@example.com');
    const cancelled = await readyJob();
    await service.api(`/jobs/${cancelled.id}`, { method: 'DELETE', headers: bearer(cancelled.secret) });
    const expired = await readyJob();
    service.clock.advance(7 * DAY + 1);
    const tokens = [newApprovalToken(cryptoRandomness), cancelled.token, expired.token, 'short'];
    const probes: [string, (token: string) => Promise<Response>][] = [
      ['page', (t) => send(`/a/${t}`)],
      ['page, signed in', (t) => send(`/a/${t}`, {}, session)],
      ['page HEAD', (t) => send(`/a/${t}`, { method: 'HEAD' })],
      ['decline', (t) => send(`${API_BASE_PATH}/handoff/${t}/decline`, { method: 'POST' })],
      ['decline form', (t) => postForm(`${API_BASE_PATH}/handoff/${t}/decline`, {}, undefined, { origin: SITE })],
      [
        'decline page form',
        (t) => postForm(`/a/${t}/decline`, { choice: 'price', text: 'x' }, undefined, { origin: SITE }),
      ],
      ['adopt', (t) => postJson(`${API_BASE_PATH}/handoff/${t}/adopt`, { submissionNo: 1 }, session)],
      ['adopt form', (t) => postForm(`${API_BASE_PATH}/handoff/${t}/adopt`, { submissionNo: '1' }, session)],
    ];
    for (const [what, probe] of probes) {
      const answers = [];
      for (const token of tokens) answers.push(await answerOf(await probe(token), token));
      expect(answers[0]!.status, what).toBeGreaterThanOrEqual(303);
      for (const [i, answer] of answers.entries()) expect(answer, `${what}: ${tokens[i]}`).toEqual(answers[0]);
    }
    expect(await dbRows('SELECT id FROM designs')).toEqual([]);
  });
});

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(dir, file));
}

/** A predictable Randomness (a linear congruential generator), only to show where chance enters. */
function seeded(start: number): Randomness {
  let state = start;
  const bytes = (n: number) =>
    Uint8Array.from({ length: n }, () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) >>> 24);
  const hex = (n: number) => Buffer.from(bytes(n)).toString('hex');
  return { bytes, uuid: () => `${hex(4)}-${hex(2)}-4${hex(2).slice(1)}-8${hex(2).slice(1)}-${hex(6)}` };
}
