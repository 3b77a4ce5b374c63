import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DAY, ManualClock } from '../core/clock.ts';
import { APPROVAL_TOKEN_PATTERN, BASE58, newApprovalToken } from '../core/handoff/approval-token.ts';
import { silentLogger } from '../core/logger.ts';
import { cryptoRandomness, type Randomness } from '../core/randomness.ts';
import { API_BASE_PATH } from '../core/urls.ts';
import { buildService } from '../service.ts';
import { bearer, braceletBody, jsonInit, roomyRateLimits } from './helpers/flows.ts';
import { makePng } from './helpers/png.ts';
import { ScriptedPipeline } from './helpers/scripted-pipeline.ts';
import { answerOf, probes } from './helpers/security-probes.ts';
import { servicePerTest, SITE } from './helpers/service.ts';

const service = servicePerTest({ config: { limits: roomyRateLimits } });
const { readyJob, signUp, send, postForm, postJson, dbRows } = probes(service);

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

    const sources = ['core', 'http', 'web', 'mcp', 'db']
      .flatMap((dir) => tsFiles(dir))
      .concat(['server.ts', 'service.ts', 'env.ts']);
    const random = /randomBytes|randomUUID|getRandomValues|randomInt|Math\.random/;
    expect(sources.filter((file) => random.test(readFileSync(file, 'utf8')))).toEqual(['core/randomness.ts']);
    // Only the two entry points pick the real clock and randomness; no adapter falls back to them.
    const picks = /systemClock|cryptoRandomness/;
    expect(sources.filter((file) => picks.test(readFileSync(file, 'utf8'))).sort()).toEqual(
      ['core/clock.ts', 'core/randomness.ts', 'mcp/stdio.ts', 'server.ts'].sort(),
    );
    for (const entry of ['server.ts', 'mcp/stdio.ts']) {
      expect(readFileSync(entry, 'utf8'), entry).toMatch(/build(Service|Core)\([^)]*random: cryptoRandomness/s);
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
