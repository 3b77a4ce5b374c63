import {
  isInitializeRequest,
  WebStandardStreamableHTTPServerTransport,
  type McpServer,
} from '@modelcontextprotocol/server';
import type { Context, Hono } from 'hono';
import { MINUTE, systemClock, type Clock } from '../core/clock.ts';
import type { Core } from '../core/index.ts';
import type { Logger } from '../core/logger.ts';
import { cryptoRandomness, type Randomness } from '../core/randomness.ts';
import { addressGroup } from '../core/limits/address-group.ts';
import { clientAddress } from '../http/client-address.ts';
import { readCapped } from '../http/read-body.ts';
import { createMcpServer } from './server.ts';
import { requestOriginCheck } from './origin-check.ts';
import { roomFor, type HeldSession } from './session-share.ts';

export const MCP_PATH = '/mcp';

export interface McpHttpOptions {
  core: Core;
  log: Logger;
  apiEnabled: boolean;
  trustProxy: boolean;
  /** Drives session expiry; the system clock unless a test moves time itself. */
  clock?: Clock;
  random?: Randomness;
}

export interface McpSessions {
  readonly size: number;
  /** Closes the sessions idle past the timeout (also runs before each request and on a timer). */
  sweep(): Promise<void>;
  closeAll(): Promise<void>;
}

interface Session extends HeldSession {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
  sessionKey: string;
}

const MAX_INITIALIZE_BYTES = 64 * 1024;
/** An initialize is answered in milliseconds, so a burst that fills a share clears at once. */
const BUSY_RETRY_SEC = 2;
/** Base64 of the largest PNG the service takes, plus the JSON-RPC around it. */
const bodyCap = (maxPngBytes: number) => Math.ceil((maxPngBytes * 4) / 3) + 64 * 1024;

const rpcError = (status: number, code: number, message: string, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });

/** 404 for an unknown, expired or foreign session id alike: the client starts a new session. */
const sessionNotFound = () => rpcError(404, -32001, 'Session not found; start a new session with initialize.');

/**
 * Streamable HTTP MCP at `/mcp` on the service: one SDK web-standard transport and one MCP server
 * per session, session ids minted here, idle sessions closed, Host and Origin checked against the
 * site URL (DNS-rebinding protection). A session answers only the address group that opened it,
 * and each group holds a bounded share of the sessions (session-share.ts). Job state lives in
 * the database, not in the session.
 */
export function registerMcpRoutes(app: Hono, options: McpHttpOptions): McpSessions {
  const clock = options.clock ?? systemClock;
  const random = options.random ?? cryptoRandomness;
  const limits = options.core.config.mcp;
  const idleTimeoutMs = limits.idleMinutes * MINUTE;
  const shares = { perAddress: limits.sessionsPerAddress, total: limits.maxSessions };
  const originCheck = requestOriginCheck(options.core.urls.siteUrl, options.trustProxy, limits.allowedOrigins);
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
    options.log.info({ msg: 'mcp session ended', reason });
    // Its job handles stay: they are good in any session until their jobs expire.
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

  async function open(c: Context, address: string): Promise<Response> {
    const raw = await readCapped(c.req.raw.body, MAX_INITIALIZE_BYTES);
    if (raw === 'too-large') return rpcError(413, -32000, 'Request body too large.');
    if (raw === 'cut-off') return rpcError(400, -32700, 'Parse error: the body ended early.');
    let body: unknown;
    try {
      body = JSON.parse(Buffer.from(raw).toString('utf8'));
    } catch {
      return rpcError(400, -32700, 'Parse error: the body is not JSON.');
    }
    if (!isInitializeRequest(body)) {
      return rpcError(400, -32000, 'Bad Request: no valid Mcp-Session-Id header; send initialize first.');
    }
    const admitted = await options.core.admitAgentSession(address);
    if (!admitted.ok) {
      const { message, agent_instruction, retryAfterSec } = admitted.error;
      const retry: Record<string, string> = retryAfterSec === undefined ? {} : { 'retry-after': String(retryAfterSec) };
      return rpcError(429, -32000, [message, agent_instruction].filter(Boolean).join(' '), retry);
    }
    await sweep();

    // The place is taken before anything is awaited, so initializes sent at once from one address
    // cannot all see room in its share.
    const group = addressGroup(address);
    const room = roomFor(sessions, group, shares);
    if (room.kind === 'busy') {
      return rpcError(503, -32000, 'Too many MCP sessions are being opened at once; try again in a few seconds.', {
        'retry-after': String(BUSY_RETRY_SEC),
      });
    }
    const id = random.uuid();
    const sessionKey = `http:${id}`;
    const session: Session = {
      transport: new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => id,
        onsessionclosed: () => end(id, 'closed'),
        maxRequestBodySize: bodyCap(options.core.config.image.maxBytes),
      }),
      server: createMcpServer(options.core, {
        sessionKey,
        clientAddress: address,
        transport: 'http',
        era: 'legacy',
        log: options.log,
      }),
      sessionKey,
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
      response = await session.transport.handleRequest(c.req.raw, { parsedBody: body });
    } catch (error) {
      // Never left holding a place it could not be evicted from (it would stay 'opening').
      await end(id, 'closed');
      throw error;
    }
    session.opening = false;
    if (session.transport.sessionId === undefined) await end(id, 'closed');
    return response;
  }

  app.all(MCP_PATH, async (c) => {
    // Switched off, MCP is as absent as the REST API.
    if (!options.apiEnabled) return c.notFound();
    const refusal = originCheck(c.req.raw);
    if (refusal) return rpcError(403, -32000, `Forbidden: ${refusal}`);

    const address = clientAddress(c, options.trustProxy);
    const id = c.req.header('mcp-session-id');
    if (id === undefined) {
      if (c.req.method !== 'POST') return rpcError(400, -32000, 'Bad Request: no Mcp-Session-Id header.');
      return open(c, address);
    }
    await sweep();
    const session = sessions.get(id);
    // Unknown or expired: 404 tells the client to start a new session (MCP 2025-11-25).
    if (!session) return sessionNotFound();
    // A session id is a bearer token for the session's jobs: one seen from elsewhere is not
    // honoured, and the owner's session stays open.
    if (addressGroup(address) !== session.group) {
      options.log.warn({ msg: 'mcp session id presented from another address' });
      return sessionNotFound();
    }
    session.lastSeen = clock.now();
    return session.transport.handleRequest(c.req.raw);
  });

  return {
    get size() {
      return sessions.size;
    },
    sweep,
    async closeAll() {
      await Promise.all([...sessions.keys()].map((id) => end(id, 'closed')));
    },
  };
}
