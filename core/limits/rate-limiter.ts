import { sql } from 'drizzle-orm';
import type { Database, WriteTx } from '../../db/database.ts';
import { DAY, HOUR, MINUTE, type Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import { coreError, type CoreError } from '../errors.ts';
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

interface Bucket {
  name: BucketName;
  scope: string;
}

export interface RateLimiter {
  /**
   * `POST /jobs`: per-IP hourly bucket first, then the global daily one. Given `tx` (the job's
   * own write), the hits are recorded in it and commit or roll back with the job; a store that
   * fails then throws, and the caller answers with `storeUnreachable`.
   */
  jobCreation(clientAddress: string, tx?: WriteTx): Promise<Result<void>>;
  /** Submission POSTs: per-IP sliding hour, then global per minute, then global per day. */
  submission(clientAddress: string): Promise<Result<void>>;
  adopt(accountId: string): Promise<Result<void>>;
  /** Sign-in attempts, per address then per email (keyed hashes, never the values). */
  signIn(clientAddress: string, email: string): Promise<Result<void>>;
  /** The refusal when the store cannot record a hit (fail closed); logs the cause. */
  storeUnreachable(cause: unknown): CoreError;
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

  /** Records one hit per bucket in order; the first bucket that is full refuses, and its hit is not recorded. */
  async function record(tx: WriteTx, buckets: Bucket[], now: number): Promise<BucketName | undefined> {
    for (const { name, scope } of buckets) {
      const key = `${name}:${scope}`;
      const since = windowStart(specs[name].window, now);
      const limit = specs[name].limit(config);
      // Counts the window and records the hit in one statement: the hit goes in only while the
      // window holds fewer than the limit. Counting walks every hit in the window, so it is
      // skipped when the whole table holds fewer rows than the limit (ids are unique, so at most
      // max - min + 1, read from the primary key): with limits raised above a day's traffic it
      // would otherwise grow with the traffic. A window never holds more hits than its limit,
      // so the count walks at most that many. Hits before the window are never counted; the
      // sweeper prunes them (core/maintenance/sweeper.ts).
      const taken = await tx.run(
        sql`INSERT INTO rate_hits (bucket, at) SELECT ${key}, ${now}
            WHERE CASE
              WHEN coalesce((SELECT max(id) FROM rate_hits) - (SELECT min(id) FROM rate_hits) + 1, 0) < ${limit} THEN 1
              ELSE (SELECT count(*) FROM rate_hits WHERE bucket = ${key} AND at > ${since}) < ${limit}
            END`,
      );
      if (taken.rowsAffected === 0) return name;
    }
    return undefined;
  }

  async function take(buckets: Bucket[], tx?: WriteTx): Promise<Result<void>> {
    const now = clock.now();
    let refused: BucketName | undefined;
    if (tx) {
      refused = await record(tx, buckets, now);
    } else {
      try {
        refused = await db.write((own) => record(own, buckets, now));
      } catch (cause) {
        return err(storeUnreachable(cause));
      }
    }
    return refused ? err(rateLimited(refused, now)) : ok(undefined);
  }

  function storeUnreachable(cause: unknown): CoreError {
    log.error({ msg: 'rate limiter store unreachable; refusing', err: errorText(cause) });
    return coreError('RATE_LIMITED', {
      message: 'The rate limiter could not reach its store, so it refuses requests until it can (fail closed).',
      agent_instruction: `Wait ${FAIL_CLOSED_RETRY_SEC} seconds and send the same request again.`,
      retryAfterSec: FAIL_CLOSED_RETRY_SEC,
    });
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
    jobCreation: (clientAddress, tx) =>
      take(
        [
          { name: 'jobsPerHourPerIp', scope: address(clientAddress) },
          { name: 'globalJobsPerDay', scope: '*' },
        ],
        tx,
      ),
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
    storeUnreachable,
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
