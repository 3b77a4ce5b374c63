import { isInitializeRequest, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { McpServer } from '@modelcontextprotocol/server';
import { MINUTE, type Clock, type Core, addressGroup, type Logger, type Randomness } from '../core/index.ts';
import { rpcError } from './rpc-error.ts';
import { createMcpServer } from './server.ts';
import { roomFor, type HeldSession } from './session-share.ts';

interface LegacySessionsOptions {
  core: Core;
  log: Logger;
  clock: Clock;
  random: Randomness;
  /** The largest POST body a session's transport takes (the endpoint reads and caps it first). */
  maxBodyBytes: number;
}

/** The sessionful 2025-11-25 leg of `/mcp`: what the endpoint needs of it. */
interface LegacySessions {
  readonly size: number;
  /** Serves one request of a 2025-era client: `initialize` opens a session, the rest use one. */
  handle(request: Request, address: string, body: unknown): Promise<Response>;
  /** Closes the sessions idle past the timeout (also runs before each request and on a timer). */
  sweep(): Promise<void>;
  closeAll(): Promise<void>;
}

interface Session extends HeldSession {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
}

/** An initialize is answered in milliseconds, so a burst that fills a share clears at once. */
const BUSY_RETRY_SEC = 2;

/** 404 for an unknown, expired or foreign session id alike: the client starts a new session. */
const sessionNotFound = () => rpcError(404, -32001, 'Session not found; start a new session with initialize.');

/**
 * 2025-era clients (revisions up to 2025-11-25, which open with `initialize`): one SDK
 * web-standard transport and one MCP server per session, session ids minted here, idle sessions
 * closed. A session answers only the address group that opened it, and each group holds a
 * bounded share of the sessions (session-share.ts). The sessions live in this process; the job
 * handles their tools mint live in the database.
 */
export function legacySessions(options: LegacySessionsOptions): LegacySessions {
  const { clock, random, log } = options;
  const limits = options.core.config.mcp;
  const idleTimeoutMs = limits.idleMinutes * MINUTE;
  const shares = { perAddress: limits.sessionsPerAddress, total: limits.maxSessions };
  const sessions = new Map<string, Session>();
  let timer: ReturnType<typeof setInterval> | undefined;

  async function end(id: string, reason: 'expired' | 'closed' | 'evicted'): Promise<void> {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    if (sessions.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
    log.info({ msg: 'mcp session ended', reason });
    await session.server.close().catch(() => undefined);
  }

  async function sweep(): Promise<void> {
    const now = clock.now();
    const idle = [...sessions].filter(([, s]) => now - s.lastSeen > idleTimeoutMs).map(([id]) => id);
    await Promise.all(idle.map((id) => end(id, 'expired')));
  }

  function startTimer(): void {
    if (timer) return;
    timer = setInterval(() => void sweep(), Math.min(idleTimeoutMs, MINUTE));
    timer.unref();
  }

  async function open(request: Request, address: string, body: unknown): Promise<Response> {
    if (request.method !== 'POST') return rpcError(400, -32000, 'Bad Request: no Mcp-Session-Id header.');
    if (!isInitializeRequest(body)) {
      return rpcError(400, -32000, 'Bad Request: no valid Mcp-Session-Id header; send initialize first.');
    }
    const admitted = await options.core.admitAgentSession(address);
    if (!admitted.ok) {
      const { message, agent_instruction, retryAfterSec } = admitted.error;
      const headers: Record<string, string> =
        retryAfterSec === undefined ? {} : { 'retry-after': String(retryAfterSec) };
      return rpcError(429, -32000, [message, agent_instruction].filter(Boolean).join(' '), { headers });
    }
    await sweep();

    // The place is taken before anything is awaited, so initializes sent at once from one address
    // cannot all see room in its share.
    const group = addressGroup(address);
    const room = roomFor(sessions, group, shares);
    if (room.kind === 'busy') {
      return rpcError(503, -32000, 'Too many MCP sessions are being opened at once; try again in a few seconds.', {
        headers: { 'retry-after': String(BUSY_RETRY_SEC) },
      });
    }
    const id = random.uuid();
    const session: Session = {
      transport: new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => id,
        onsessionclosed: () => end(id, 'closed'),
        maxRequestBodySize: options.maxBodyBytes,
      }),
      server: createMcpServer(options.core, {
        sessionKey: `http:${id}`,
        clientAddress: address,
        transport: 'http',
        era: 'legacy',
        log,
      }),
      group,
      lastSeen: clock.now(),
      opening: true,
    };
    if (room.kind === 'evict') void end(room.id, 'evicted');
    sessions.set(id, session);
    startTimer();
    let response: Response;
    try {
      await session.server.connect(session.transport);
      response = await session.transport.handleRequest(request, { parsedBody: body });
    } catch (error) {
      // Never left holding a place it could not be evicted from (it would stay 'opening').
      await end(id, 'closed');
      throw error;
    }
    session.opening = false;
    if (session.transport.sessionId === undefined) await end(id, 'closed');
    return response;
  }

  return {
    get size() {
      return sessions.size;
    },
    async handle(request, address, body) {
      const id = request.headers.get('mcp-session-id');
      if (id === null) return open(request, address, body);
      await sweep();
      const session = sessions.get(id);
      // Unknown or expired: 404 tells the client to start a new session (MCP 2025-11-25).
      if (!session) return sessionNotFound();
      // A session id is a bearer token for the session's jobs: one seen from elsewhere is not
      // honoured, and the owner's session stays open.
      if (addressGroup(address) !== session.group) {
        log.warn({ msg: 'mcp session id presented from another address' });
        return sessionNotFound();
      }
      session.lastSeen = clock.now();
      // Kept in order of use as well: sessions used within the same millisecond still give way
      // least recently used first (session-share.ts takes the first of equal times).
      sessions.delete(id);
      sessions.set(id, session);
      return session.transport.handleRequest(request, body === undefined ? {} : { parsedBody: body });
    },
    sweep,
    async closeAll() {
      await Promise.all([...sessions.keys()].map((id) => end(id, 'closed')));
    },
  };
}
