import { createMcpHandler } from '@modelcontextprotocol/server';
import { type Core, errorText, type Logger } from '../core/index.ts';
import { rpcError } from './rpc-error.ts';
import { createMcpServer } from './server.ts';

interface ModernRequestsOptions {
  core: Core;
  log: Logger;
}

/** The stateless 2026-07-28 leg of `/mcp`: what the endpoint needs of it. */
interface ModernRequests {
  /** Serves one request of a 2026-era client, its body already read and parsed. */
  handle(request: Request, address: string, body: unknown): Promise<Response>;
  /**
   * Ends the exchanges in flight, `subscriptions/listen` streams included (their instances close);
   * later requests get `503`.
   */
  close(): Promise<void>;
}

/**
 * 2026-07-28 clients: no session and no handshake. Every request is served by a fresh MCP server
 * built for it (the SDK's `createMcpHandler`, strict: 2025-era traffic never reaches it) and
 * nothing stays in memory once it is answered, so any instance on the database answers any
 * request; the jobs a client works on travel as handles in the tool arguments.
 */
export function modernRequests(options: ModernRequestsOptions): ModernRequests {
  // The SDK hands the factory the request it serves; the caller's address rides beside it here,
  // never in a header a client could set.
  const addresses = new WeakMap<Request, string>();
  const handler = createMcpHandler(
    ({ requestInfo }) => {
      const clientAddress = requestInfo && addresses.get(requestInfo);
      if (clientAddress === undefined) throw new Error('mcp request served without its client address');
      return createMcpServer(options.core, {
        sessionKey: undefined,
        clientAddress,
        transport: 'http',
        era: 'modern',
        log: options.log,
      });
    },
    {
      legacy: 'reject',
      onerror: (error) => options.log.info({ msg: 'mcp request refused or failed', err: errorText(error) }),
    },
  );
  let closed = false;
  return {
    async handle(request, address, body) {
      if (closed) {
        return rpcError(503, -32000, 'The service is stopping; try again in a few seconds.', {
          headers: { 'retry-after': '5' },
        });
      }
      addresses.set(request, address);
      return handler.fetch(request, body === undefined ? {} : { parsedBody: body });
    },
    async close() {
      closed = true;
      await handler.close();
    },
  };
}
