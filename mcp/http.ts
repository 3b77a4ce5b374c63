import { isJsonContentType, isLegacyRequest } from '@modelcontextprotocol/server';
import { type Clock, type Core, type Logger, type Randomness, readCapped } from '../core/index.ts';
import { legacySessions } from './legacy-sessions.ts';
import { modernRequests } from './modern-requests.ts';
import { requestOriginCheck } from './origin-check.ts';
import { rpcError } from './rpc-error.ts';

export const MCP_PATH = '/mcp';

interface McpHttpOptions {
  core: Core;
  log: Logger;
  /** Behind a trusted proxy the Host check reads `X-Forwarded-Host`. */
  trustProxy: boolean;
  /** Drives session expiry. */
  clock: Clock;
  /** Session ids. */
  random: Randomness;
}

interface McpEndpoint {
  /**
   * Answers one request to `/mcp`. `clientAddress` is the caller's address as the HTTP adapter
   * reads it (the socket's, or `X-Forwarded-For` behind a trusted proxy): the rate limits count it.
   */
  handle(request: Request, clientAddress: string): Promise<Response>;
  /** The 2025-era sessions this process holds. */
  readonly size: number;
  /** Closes the sessions idle past the timeout (also runs before each request and on a timer). */
  sweep(): Promise<void>;
  /**
   * Ends every 2025-era session and every 2026-era exchange still open, and with them the
   * streams that would keep the listener from closing (shutdown's first step); later 2026-era
   * requests get `503`. Sessions are not refused: a client that comes back opens a new one.
   */
  close(): Promise<void>;
}

/** Base64 of the largest PNG the service takes, plus the JSON-RPC around it. */
const bodyCap = (maxPngBytes: number) => Math.ceil((maxPngBytes * 4) / 3) + 64 * 1024;

const declaredLength = (request: Request): number => Number(request.headers.get('content-length') ?? NaN);

/** A POST's JSON body, read once within the cap, or the refusal to answer; no body for other methods. */
async function readBody(request: Request, cap: number): Promise<{ body: unknown } | Response> {
  if (request.method !== 'POST') return { body: undefined };
  if (!isJsonContentType(request.headers.get('content-type'))) {
    return rpcError(415, -32000, 'Unsupported Media Type: Content-Type must be application/json.');
  }
  const tooLarge = () => rpcError(413, -32000, `Request body too large: at most ${cap.toLocaleString('en-US')} bytes.`);
  if (declaredLength(request) > cap) return tooLarge();
  const raw = await readCapped(request.body, cap);
  if (raw === 'too-large') return tooLarge();
  if (raw === 'cut-off') return rpcError(400, -32700, 'Parse error: the body ended early.');
  try {
    return { body: JSON.parse(Buffer.from(raw).toString('utf8')) as unknown };
  } catch {
    return rpcError(400, -32700, 'Parse error: the body is not JSON.');
  }
}

/**
 * Streamable HTTP MCP at `/mcp`, both protocol eras on one endpoint, with no HTTP framework of its
 * own: the service's app mounts it (and keeps it absent while the agent API is switched off). Every
 * request passes the same gate: Host and Origin against the site URL (DNS-rebinding protection),
 * JSON and the body cap. Then the SDK's own classifier (`isLegacyRequest`) sends 2025-era traffic
 * (`initialize`, session ids) to the sessionful leg (legacy-sessions.ts) and 2026-07-28 requests (a
 * `_meta` envelope on each) to the stateless one (modern-requests.ts), both building their servers
 * with the same `createMcpServer`.
 */
export function createMcpEndpoint(options: McpHttpOptions): McpEndpoint {
  const maxBodyBytes = bodyCap(options.core.config.image.maxBytes);
  const originCheck = requestOriginCheck(
    options.core.urls.siteUrl,
    options.trustProxy,
    options.core.config.mcp.allowedOrigins,
  );
  const legacy = legacySessions({
    core: options.core,
    log: options.log,
    clock: options.clock,
    random: options.random,
    maxBodyBytes,
  });
  const modern = modernRequests({ core: options.core, log: options.log });

  return {
    async handle(request, address) {
      const refusal = originCheck(request);
      if (refusal) return rpcError(403, -32000, `Forbidden: ${refusal}`);
      const read = await readBody(request, maxBodyBytes);
      if (read instanceof Response) return read;
      return (await isLegacyRequest(request, read.body))
        ? legacy.handle(request, address, read.body)
        : modern.handle(request, address, read.body);
    },
    get size() {
      return legacy.size;
    },
    sweep: () => legacy.sweep(),
    async close() {
      await Promise.all([legacy.closeAll(), modern.close()]);
    },
  };
}
