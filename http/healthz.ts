import type { Hono } from 'hono';
import { errorText, type Logger } from '../core/index.ts';
import { json } from './respond.ts';

/** Readiness: can this instance serve uploads now (a load balancer routes to it only then). */
export const HEALTHZ_PATH = '/healthz';
/** Liveness: does the process still answer (a supervisor restarts it only when not). */
export const LIVEZ_PATH = '/livez';
/** A probe waits a few seconds at most; a database that takes longer is as good as down. */
const DEFAULT_TIMEOUT_MS = 2000;

/**
 * One readiness check: resolves `'ok'` when its part can serve, or the word for what is wrong
 * (`'full'`); a rejection or a check past the time limit reads `'unavailable'`.
 */
export type ReadinessCheck = () => Promise<string>;

interface HealthzOptions {
  /** By name, in the order they are reported: the database answers, takes writes, has disk. */
  checks: Record<string, ReadinessCheck>;
  log: Logger;
  timeoutMs?: number;
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * `GET|HEAD /healthz` (readiness) runs every check at once: 200 `{"status":"ok"}` when all pass,
 * 503 `{"status":"unavailable","checks":{...}}` naming each one's state otherwise.
 * `GET|HEAD /livez` (liveness) touches nothing and answers 200 while the process serves requests,
 * so a supervisor does not restart a healthy process because its database is away.
 * Both sit outside the API base, so they answer even while the API is switched off; an error's
 * text stays in the log.
 */
export function registerHealthz(app: Hono, options: HealthzOptions): void {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  app.get(HEALTHZ_PATH, async () => {
    const names = Object.keys(options.checks);
    const states = await Promise.all(
      names.map((name) =>
        withTimeout(options.checks[name]!(), timeoutMs).catch((error: unknown) => {
          options.log.error({ msg: 'health check failed', check: name, err: errorText(error) });
          return 'unavailable';
        }),
      ),
    );
    if (states.every((state) => state === 'ok')) return json(200, { status: 'ok' });
    const checks = Object.fromEntries(names.map((name, i) => [name, states[i]]));
    // A check that answered with a word ('full') logged nothing of its own.
    if (states.some((state) => state !== 'ok' && state !== 'unavailable')) {
      options.log.error({ msg: 'health check failed', checks });
    }
    return json(503, { status: 'unavailable', checks });
  });
  app.get(LIVEZ_PATH, () => json(200, { status: 'ok' }));
  for (const path of [HEALTHZ_PATH, LIVEZ_PATH]) {
    app.all(path, () => new Response(null, { status: 405, headers: { allow: 'GET, HEAD' } }));
  }
}
