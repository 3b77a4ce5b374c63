import type { Hono } from 'hono';
import { errorText, type Logger } from '../core/logger.ts';
import { json } from './respond.ts';

export const HEALTHZ_PATH = '/healthz';
/** A probe waits a few seconds at most; a database that takes longer is as good as down. */
const DEFAULT_TIMEOUT_MS = 2000;

export interface HealthzOptions {
  /** The cheap query (`select 1`) that proves the database answers. */
  ping: () => Promise<unknown>;
  log: Logger;
  timeoutMs?: number;
}

function withTimeout(work: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * `GET|HEAD /healthz` for operators and load balancers: 200 `{"status":"ok"}` when the database
 * answers, 503 `{"status":"unavailable",...}` when it does not. It sits outside the API base, so it
 * answers even while the API is switched off, and the error's text stays in the log.
 */
export function registerHealthz(app: Hono, options: HealthzOptions): void {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  app.get(HEALTHZ_PATH, async () => {
    try {
      await withTimeout(options.ping(), timeoutMs);
      return json(200, { status: 'ok' });
    } catch (error) {
      options.log.error({ msg: 'health check failed', check: 'database', err: errorText(error) });
      return json(503, { status: 'unavailable', checks: { database: 'unavailable' } });
    }
  });
  app.all(HEALTHZ_PATH, () => new Response(null, { status: 405, headers: { allow: 'GET, HEAD' } }));
}
