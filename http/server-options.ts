import type { Server, ServerOptions } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { LINGER_BOUNDS, lingerOverUnreadBodies, type LingerBounds } from './lingering-close.ts';
import { answerUnreadableRequests } from './unreadable-requests.ts';

/**
 * A client has this long to send its request line and headers (a few hundred bytes), so a
 * connection that trickles them in (slowloris) is cut off with 408 instead of being held open.
 */
export const HEADERS_TIMEOUT_MS = 10_000;

/**
 * A client has this long to send the whole request, body included. The largest upload is
 * 6,000,000 bytes: this allows it at 100 kB/s. Only receiving counts; the pipeline's time
 * after the last byte does not.
 */
export const REQUEST_TIMEOUT_MS = 60_000;

/**
 * Node checks the two limits above on a timer (30 s by default), so a limit is enforced
 * between its value and its value plus this interval.
 */
export const CONNECTIONS_CHECKING_INTERVAL_MS = 1_000;

const httpServerOptions: ServerOptions = {
  headersTimeout: HEADERS_TIMEOUT_MS,
  requestTimeout: REQUEST_TIMEOUT_MS,
  connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS,
};

interface ListenOptions {
  fetch: Parameters<typeof serve>[0]['fetch'];
  port: number;
  hostname?: string;
  /** How much of a body left unread by an early answer is still read; tests shorten it. */
  linger?: LingerBounds;
}

/**
 * Serves `fetch` as the running service does (`server.ts`; tests listen the same way): the limits
 * above, and a body an early answer left unread read to its end, within bounds, so that a client
 * still sending reads the answer (`lingering-close.ts`).
 */
export function listen(options: ListenOptions, onListening?: (info: AddressInfo) => void): ServerType {
  const { linger = LINGER_BOUNDS, ...where } = options;
  // Off: its cleanup would close the socket 500 ms after an early answer, the body still arriving.
  const server = serve({ ...where, serverOptions: httpServerOptions, autoCleanupIncoming: false }, onListening);
  lingerOverUnreadBodies(server as Server, linger);
  answerUnreadableRequests(server as Server, {
    headersTimeoutMs: HEADERS_TIMEOUT_MS,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
  });
  return server;
}

/**
 * Stops taking connections and calls `done` once the last one has closed. Idle keep-alive
 * connections close at once, and so does every other one as soon as its answer is out: left
 * alone, a connection whose answer ended after this call (a request in flight, an MCP stream the
 * shutdown ended) would idle for Node's keep-alive timeout (5 s), and carry further requests
 * meanwhile, before the listener could close.
 */
export function stopListening(server: ServerType, done: () => void): void {
  const http = server as Server;
  // Read when an answer finishes; 0 would mean no timeout at all.
  http.keepAliveTimeout = 1;
  http.close(() => done());
}
