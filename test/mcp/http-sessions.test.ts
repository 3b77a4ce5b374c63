import { describe, expect, it } from 'vitest';
import { HOUR } from '../../core/clock.ts';
import { servicePerTest, SITE, type TestService } from '../helpers/service.ts';

/** Sessions at `/mcp` under pressure: shares per address, the initialize bucket, foreign ids, origins. */

const A = '198.51.100.1';
const B = '198.51.100.2';
const C = '198.51.100.3';
const NET = '2001:db8:1:2';

const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const initializeBody = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * The answer's head, and its text for JSON answers. An SSE answer's stream is dropped unread: the
 * test helper's contract check holds a clone, so cancelling settles only with that clone.
 */
async function read(response: Response): Promise<Answer> {
  const sse = response.headers.get('content-type')?.startsWith('text/event-stream');
  const text = sse ? '' : await response.text();
  if (sse) void response.body?.cancel().catch(() => undefined);
  return { status: response.status, headers: response.headers, text };
}

const initialize = async (service: TestService, address: string, extra: Record<string, string> = {}) =>
  read(
    await service.fetch('/mcp', { method: 'POST', headers: { ...headers, ...extra }, body: initializeBody }, address),
  );

async function open(service: TestService, address: string): Promise<string> {
  const answer = await initialize(service, address);
  expect(answer.status, answer.text).toBe(200);
  return answer.headers.get('mcp-session-id')!;
}

/** tools/list in a session: 200 while the session answers this address, 404 otherwise. */
const listTools = async (service: TestService, id: string, address: string) =>
  (
    await read(
      await service.fetch(
        '/mcp',
        {
          method: 'POST',
          headers: { ...headers, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
        },
        address,
      ),
    )
  ).status;

describe('MCP sessions: each address holds a bounded share', () => {
  const service = servicePerTest({ config: { mcp: { sessionsPerAddress: 3, maxSessions: 5 } } });

  it("closes an address's least recently used session when it opens one past its share", async () => {
    const ids = [await open(service, A), await open(service, A), await open(service, A)];
    expect(await listTools(service, ids[0]!, A)).toBe(200); // the first is now the most recently used
    const fourth = await open(service, A);
    expect(await listTools(service, ids[1]!, A)).toBe(404);
    for (const id of [ids[0]!, ids[2]!, fourth]) expect(await listTools(service, id, A)).toBe(200);
  });

  it('holds an address to its share when it sends many initializes at once', async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, () => initialize(service, A)));
    // Each is either a session or a 503 asking to try again shortly; none is left half-open.
    for (const answer of answers) expect([200, 503]).toContain(answer.status);
    for (const refused of answers.filter((a) => a.status === 503)) expect(refused.headers.get('retry-after')).toBe('2');
    const ids = answers.filter((a) => a.status === 200).map((a) => a.headers.get('mcp-session-id')!);
    expect(ids.length).toBeGreaterThanOrEqual(3);
    const answering = [];
    for (const id of ids) if ((await listTools(service, id, A)) === 200) answering.push(id);
    expect(answering).toHaveLength(3);
    expect(await listTools(service, await open(service, B), B)).toBe(200);
  });

  it('counts the addresses of one IPv6 /64 as one address', async () => {
    const ids = [await open(service, `${NET}::1`), await open(service, `${NET}::2`), await open(service, `${NET}::3`)];
    await open(service, `${NET}:ffff::4`);
    expect(await listTools(service, ids[0]!, `${NET}::1`)).toBe(404);
    expect(await listTools(service, ids[1]!, `${NET}::2`)).toBe(200);
  });

  it('never refuses a newcomer when the table is full: the biggest holder gives up its oldest session', async () => {
    const a = [await open(service, A), await open(service, A), await open(service, A)];
    const c = [await open(service, C), await open(service, C)];
    // Full (5): A keeps opening and only ever closes its own sessions.
    for (let i = 0; i < 6; i++) await open(service, A);
    for (const id of c) expect(await listTools(service, id, C)).toBe(200);
    // B, new, gets in; A (3 held, the most) gives up its least recently used.
    const b = await open(service, B);
    expect(await listTools(service, b, B)).toBe(200);
    for (const id of c) expect(await listTools(service, id, C)).toBe(200);
    expect(await listTools(service, a[0]!, A)).toBe(404);
  });
});

describe("MCP sessions at the default configuration: the review's attack", () => {
  const service = servicePerTest();

  it('200 initializes from one address leave it 20 sessions and 80 refusals (429); another address still connects', async () => {
    const answers: Answer[] = [];
    for (let i = 0; i < 200; i++) answers.push(await initialize(service, A));
    const { sessionsPerAddress, sessionsPerHourPerAddress } = service.core.config.mcp;
    expect(answers.filter((a) => a.status === 200)).toHaveLength(sessionsPerHourPerAddress);
    expect(answers.slice(sessionsPerHourPerAddress).every((a) => a.status === 429)).toBe(true);
    const ids = answers.filter((a) => a.status === 200).map((a) => a.headers.get('mcp-session-id')!);
    let answering = 0;
    for (const id of ids) if ((await listTools(service, id, A)) === 200) answering++;
    expect(answering).toBe(sessionsPerAddress);
    expect(await listTools(service, await open(service, B), B)).toBe(200);
  });
});

describe('MCP sessions: initialize counts in mcpSessionsPerHourPerAddress', () => {
  const service = servicePerTest({ config: { mcp: { sessionsPerHourPerAddress: 3 } } });

  it('answers 429 with Retry-After past the limit, for the whole /64, and leaves other addresses alone', async () => {
    for (let i = 1; i <= 3; i++) await open(service, `${NET}::${i}`);
    const refused = await initialize(service, `${NET}::99`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('3600');
    expect(JSON.parse(refused.text)).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32000, message: expect.stringContaining('mcpSessionsPerHourPerAddress') },
    });
    expect(JSON.parse(refused.text).error.message).toContain('at most 3 MCP sessions opened per address per hour');
    await open(service, A);
    service.clock.advance(HOUR + 1);
    await open(service, `${NET}::99`);
  });
});

describe('MCP sessions: an id answers only where its session was opened', () => {
  const service = servicePerTest();

  it('answers 404 to the id from another address; the owner keeps the session', async () => {
    const id = await open(service, A);
    expect(await listTools(service, id, B)).toBe(404);
    expect(await listTools(service, id, A)).toBe(200);
  });

  it('follows an IPv6 client to another address in its /64 (privacy addresses rotate)', async () => {
    const id = await open(service, `${NET}::1`);
    expect(await listTools(service, id, `${NET}::beef`)).toBe(200);
    expect(await listTools(service, id, '2001:db8:1:3::1')).toBe(404);
  });
});

describe('MCP origin check with a loopback SITE_URL', () => {
  const service = servicePerTest();

  it("accepts the site's own origin only: other loopback ports and names are refused", async () => {
    expect(new URL(SITE).hostname).toBe('localhost');
    expect((await initialize(service, A, { origin: SITE })).status).toBe(200);
    for (const origin of ['http://localhost:6274', 'http://127.0.0.1:8787', 'http://[::1]:3000', 'null']) {
      const refused = await initialize(service, A, { origin });
      expect([origin, refused.status]).toEqual([origin, 403]);
    }
  });
});

describe('MCP origin check: configured extra origins', () => {
  const service = servicePerTest({ config: { mcp: { allowedOrigins: ['http://localhost:6274'] } } });

  it('accepts an origin listed in mcp.allowedOrigins, and still no other', async () => {
    expect((await initialize(service, A, { origin: 'http://localhost:6274' })).status).toBe(200);
    expect((await initialize(service, A, { origin: 'http://localhost:6275' })).status).toBe(403);
  });
});
