import type { ServerOptions } from 'node:http';

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

/** The `node:http` server settings of the running service (`server.ts`); tests serve with the same. */
export const httpServerOptions: ServerOptions = {
  headersTimeout: HEADERS_TIMEOUT_MS,
  requestTimeout: REQUEST_TIMEOUT_MS,
  connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS,
};
