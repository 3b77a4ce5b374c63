import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Context, Hono } from 'hono';
import { MINUTE, systemClock, type Clock } from '../core/clock.ts';
import type { Core } from '../core/index.ts';
import { errorText, type Logger } from '../core/logger.ts';
import { cryptoRandomness, type Randomness } from '../core/randomness.ts';
import { clientAddress } from '../http/client-address.ts';
import { readCapped } from '../http/read-body.ts';
import { createMcpServer } from './server.ts';
import { requestOriginCheck } from './origin-check.ts';

export const MCP_PATH = '/mcp';

export interface McpHttpOptions {
  core: Core;
  log: Logger;
  apiEnabled: boolean;
  trustProxy: boolean;
  /** Drives session expiry; the system clock unless a test moves time itself. */
  clock?: Clock;
  random?: Randomness;
  /** A session unused this long is closed; its next request gets 404 and the client starts a new one. */
  idleTimeoutMs?: number;
  /** Sessions held by this process at most; an initialize beyond it answers 503. */
  maxSessions?: number;
}

export interface McpSessions {
  readonly size: number;
  /** Closes the sessions idle past the timeout (also runs before each request and on a timer). */
  sweep(): Promise<void>;
  closeAll(): Promise<void>;
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
  sessionKey: string;
  lastSeen: number;
}

const DEFAULT_IDLE_MS = 60 * MINUTE;
const DEFAULT_MAX_SESSIONS = 1000;
const MAX_INITIALIZE_BYTES = 64 * 1024;
/** Base64 of the largest PNG the service takes, plus the JSON-RPC around it. */
const bodyCap = (maxPngBytes: number) => Math.ceil((maxPngBytes * 4) / 3) + 64 * 1024;

const rpcError = (status: number, code: number, message: string): Response =>
  new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });

/**
 * Streamable HTTP MCP at `/mcp` on the service: one SDK web-standard transport and one MCP server
 * per session, session ids minted here, idle sessions closed, Host and Origin checked against the
 * site URL (DNS-rebinding protection). Job state lives in the database, not in the session.
 */
export function registerMcpRoutes(app: Hono, options: McpHttpOptions): McpSessions {
  const clock = options.clock ?? systemClock;
  const random = options.random ?? cryptoRandomness;
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_MS;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const originCheck = requestOriginCheck(options.core.urls.siteUrl, options.trustProxy);
  const sessions = new Map<string, Session>();
  let timer: ReturnType<typeof setInterval> | undefined;

  async function end(id: string, reason: 'expired' | 'closed'): Promise<void> {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    if (sessions.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
    options.log.info({ msg: 'mcp session ended', reason });
    await session.server.close().catch(() => undefined);
    await options.core.forgetAgentSession(session.sessionKey).catch((error: unknown) => {
      options.log.warn({ msg: 'mcp session handles not forgotten', err: errorText(error) });
    });
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

  async function open(c: Context): Promise<Response> {
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
    await sweep();
    if (sessions.size >= maxSessions) return rpcError(503, -32000, 'Too many MCP sessions; try again later.');

    const id = random.uuid();
    const session: Session = {
      transport: new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => id,
        onsessioninitialized: () => {
          sessions.set(id, session);
          startTimer();
        },
        onsessionclosed: () => end(id, 'closed'),
        maxRequestBodySize: bodyCap(options.core.config.image.maxBytes),
      }),
      server: createMcpServer(options.core, {
        sessionKey: `http:${id}`,
        clientAddress: clientAddress(c, options.trustProxy),
        transport: 'http',
        log: options.log,
      }),
      sessionKey: `http:${id}`,
      lastSeen: clock.now(),
    };
    await session.server.connect(session.transport);
    const response = await session.transport.handleRequest(c.req.raw, { parsedBody: body });
    if (!sessions.has(id)) await session.server.close();
    return response;
  }

  app.all(MCP_PATH, async (c) => {
    // Switched off, MCP is as absent as the REST API.
    if (!options.apiEnabled) return c.notFound();
    const refusal = originCheck(c.req.raw);
    if (refusal) return rpcError(403, -32000, `Forbidden: ${refusal}`);

    const id = c.req.header('mcp-session-id');
    if (id === undefined) {
      if (c.req.method !== 'POST') return rpcError(400, -32000, 'Bad Request: no Mcp-Session-Id header.');
      return open(c);
    }
    await sweep();
    const session = sessions.get(id);
    // Unknown or expired: 404 tells the client to start a new session (MCP 2025-11-25).
    if (!session) return rpcError(404, -32001, 'Session not found; start a new session with initialize.');
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
