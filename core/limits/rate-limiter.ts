import { and, count, eq, gt, lte } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { rateHits } from '../../db/schema.ts';
import { DAY, HOUR, MINUTE, type Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import { coreError } from '../errors.ts';
import type { KeyedHash } from '../keyed-hash.ts';
import { errorText, type Logger } from '../logger.ts';
import { err, ok, type Result } from '../result.ts';

export type BucketName =
  | 'jobsPerHourPerIp'
  | 'globalJobsPerDay'
  | 'submissionsPerHourPerIp'
  | 'globalSubmissionsPerMinute'
  | 'globalSubmissionsPerDay'
  | 'adoptsPerHourPerAccount'
  | 'signInPerHourPerAddress'
  | 'signInPerHourPerEmail';

type Window = 'minute' | 'hour' | 'utcDay';

interface BucketSpec {
  window: Window;
  limit: (config: Config) => number;
  /** Read out in the 429's message. */
  label: string;
  /** What a request of this bucket is, for the instruction. */
  request: string;
}

const specs: Record<BucketName, BucketSpec> = {
  jobsPerHourPerIp: {
    window: 'hour',
    limit: (c) => c.limits.jobsPerHourPerIp,
    label: 'job creations per IP address per hour',
    request: 'POST /jobs',
  },
  globalJobsPerDay: {
    window: 'utcDay',
    limit: (c) => c.limits.globalJobsPerDay,
    label: 'job creations per UTC day for all callers',
    request: 'POST /jobs',
  },
  submissionsPerHourPerIp: {
    window: 'hour',
    limit: (c) => c.limits.submissionsPerHourPerIp,
    label: 'submission uploads per IP address per sliding hour',
    request: 'upload',
  },
  globalSubmissionsPerMinute: {
    window: 'minute',
    limit: (c) => c.limits.globalSubmissionsPerMinute,
    label: 'submission uploads per minute for all callers',
    request: 'upload',
  },
  globalSubmissionsPerDay: {
    window: 'utcDay',
    limit: (c) => c.limits.globalSubmissionsPerDay,
    label: 'submission uploads per UTC day for all callers',
    request: 'upload',
  },
  adoptsPerHourPerAccount: {
    window: 'hour',
    limit: (c) => c.limits.adoptsPerHourPerAccount,
    label: 'approvals per account per hour',
    request: 'approval',
  },
  signInPerHourPerAddress: {
    window: 'hour',
    limit: (c) => c.site.signInPerHourPerAddress,
    label: 'sign-in attempts per address per hour',
    request: 'sign-in',
  },
  signInPerHourPerEmail: {
    window: 'hour',
    limit: (c) => c.site.signInPerHourPerEmail,
    label: 'sign-in attempts per email per hour',
    request: 'sign-in',
  },
};

const FAIL_CLOSED_RETRY_SEC = 30;

export interface RateLimiter {
  /** `POST /jobs`: per-IP hourly bucket first, then the global daily one. */
  jobCreation(clientAddress: string): Promise<Result<void>>;
  /** Submission POSTs: per-IP sliding hour, then global per minute, then global per day. */
  submission(clientAddress: string): Promise<Result<void>>;
  adopt(accountId: string): Promise<Result<void>>;
  /** Sign-in attempts, per address then per email (keyed hashes, never the values). */
  signIn(clientAddress: string, email: string): Promise<Result<void>>;
}

/**
 * Buckets stored in the database so every instance shares them. Buckets are checked in order;
 * each counts the request unless it is the one that refuses it, as the contract's accounting
 * paragraph says. If the store cannot answer, the limiter refuses (fails closed).
 */
export function createRateLimiter(deps: {
  db: Database;
  clock: Clock;
  config: Config;
  keyedHash: KeyedHash;
  log: Logger;
}): RateLimiter {
  const { db, clock, config, keyedHash, log } = deps;

  async function take(buckets: { name: BucketName; scope: string }[]): Promise<Result<void>> {
    const now = clock.now();
    try {
      const refused = await db.write(async (tx) => {
        for (const { name, scope } of buckets) {
          const key = `${name}:${scope}`;
          const since = windowStart(specs[name].window, now);
          await tx.delete(rateHits).where(and(eq(rateHits.bucket, key), lte(rateHits.at, since)));
          const [row] = await tx
            .select({ n: count() })
            .from(rateHits)
            .where(and(eq(rateHits.bucket, key), gt(rateHits.at, since)));
          if ((row?.n ?? 0) >= specs[name].limit(config)) return name;
          await tx.insert(rateHits).values({ bucket: key, at: now });
        }
        return undefined;
      });
      return refused ? err(rateLimited(refused, now)) : ok(undefined);
    } catch (cause) {
      log.error({ msg: 'rate limiter store unreachable; refusing', err: errorText(cause) });
      return err(
        coreError('RATE_LIMITED', {
          message: 'The rate limiter could not reach its store, so it refuses requests until it can (fail closed).',
          agent_instruction: `Wait ${FAIL_CLOSED_RETRY_SEC} seconds and send the same request again.`,
          retryAfterSec: FAIL_CLOSED_RETRY_SEC,
        }),
      );
    }
  }

  function rateLimited(name: BucketName, now: number) {
    const spec = specs[name];
    const retryAfterSec = retryAfter(spec.window, now);
    return coreError('RATE_LIMITED', {
      message: `Rate limit ${name} reached: at most ${spec.limit(config)} ${spec.label}.`,
      agent_instruction: `Wait ${retryAfterSec} seconds before the next ${spec.request} request; do not retry sooner.`,
      retryAfterSec,
    });
  }

  const address = (clientAddress: string) => keyedHash('client', clientAddress).slice(0, 32);

  return {
    jobCreation: (clientAddress) =>
      take([
        { name: 'jobsPerHourPerIp', scope: address(clientAddress) },
        { name: 'globalJobsPerDay', scope: '*' },
      ]),
    submission: (clientAddress) =>
      take([
        { name: 'submissionsPerHourPerIp', scope: address(clientAddress) },
        { name: 'globalSubmissionsPerMinute', scope: '*' },
        { name: 'globalSubmissionsPerDay', scope: '*' },
      ]),
    adopt: (accountId) => take([{ name: 'adoptsPerHourPerAccount', scope: accountId }]),
    signIn: (clientAddress, email) =>
      take([
        { name: 'signInPerHourPerAddress', scope: address(clientAddress) },
        { name: 'signInPerHourPerEmail', scope: keyedHash('email', email).slice(0, 32) },
      ]),
  };
}

/** Hits after this instant are inside the window. */
function windowStart(window: Window, now: number): number {
  if (window === 'minute') return now - MINUTE;
  if (window === 'hour') return now - HOUR;
  return startOfUtcDay(now) - 1;
}

/** The bucket's window, or the seconds left until midnight UTC for a daily bucket. */
function retryAfter(window: Window, now: number): number {
  if (window === 'minute') return MINUTE / 1000;
  if (window === 'hour') return HOUR / 1000;
  return Math.max(1, Math.ceil((startOfUtcDay(now) + DAY - now) / 1000));
}

const startOfUtcDay = (now: number): number => now - (now % DAY);
