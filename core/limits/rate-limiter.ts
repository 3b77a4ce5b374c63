import { sql } from 'drizzle-orm';
import type { Database, WriteTx } from '../../db/database.ts';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import { slot, words, type Text } from '../contract/agent-words.ts';
import { coreError, type CoreError } from '../errors.ts';
import type { KeyedHash } from '../keyed-hash.ts';
import { errorText, type Logger } from '../logger.ts';
import { err, ok, type Result } from '../result.ts';
import { addressGroup } from './address-group.ts';
import { readReport, type CheckedBucket, type RateLimitObserver, type RateLimitReport } from './rate-report.ts';
import { recordSignInAttempt, type SignInAttempt } from './sign-in-failures.ts';
import { retryAfter, windowStart, type Window } from './windows.ts';

export type BucketName =
  | 'jobsPerHourPerIp'
  | 'globalJobsPerDay'
  | 'submissionsPerHourPerIp'
  | 'globalSubmissionsPerMinute'
  | 'globalSubmissionsPerDay'
  | 'adoptsPerHourPerAccount'
  | 'signInPerHourPerAddress'
  | 'signInFailuresPerHourPerAddressAndEmail'
  | 'signInFailuresPerHourPerEmail'
  | 'mcpSessionsPerHourPerAddress';

interface BucketSpec {
  window: Window;
  limit: (config: Config) => number;
  /** Read out in the 429's message. */
  label: string;
  /** What a request of this bucket is, for the instruction ("before the next …"). */
  request: Text;
}

const specs: Record<BucketName, BucketSpec> = {
  jobsPerHourPerIp: {
    window: 'hour',
    limit: (c) => c.limits.jobsPerHourPerIp,
    label: 'job creations per IP address per hour',
    request: words`${slot.openJobRequest}`,
  },
  globalJobsPerDay: {
    window: 'utcDay',
    limit: (c) => c.limits.globalJobsPerDay,
    label: 'job creations per UTC day for all callers',
    request: words`${slot.openJobRequest}`,
  },
  submissionsPerHourPerIp: {
    window: 'hour',
    limit: (c) => c.limits.submissionsPerHourPerIp,
    label: 'submission uploads per IP address per sliding hour',
    request: 'upload request',
  },
  globalSubmissionsPerMinute: {
    window: 'minute',
    limit: (c) => c.limits.globalSubmissionsPerMinute,
    label: 'submission uploads per minute for all callers',
    request: 'upload request',
  },
  globalSubmissionsPerDay: {
    window: 'utcDay',
    limit: (c) => c.limits.globalSubmissionsPerDay,
    label: 'submission uploads per UTC day for all callers',
    request: 'upload request',
  },
  adoptsPerHourPerAccount: {
    window: 'hour',
    limit: (c) => c.limits.adoptsPerHourPerAccount,
    label: 'approvals per account per hour',
    request: 'approval request',
  },
  signInPerHourPerAddress: {
    window: 'hour',
    limit: (c) => c.site.signInPerHourPerAddress,
    label: 'sign-in and sign-up attempts per address per hour',
    request: 'sign-in request',
  },
  signInFailuresPerHourPerAddressAndEmail: {
    window: 'hour',
    limit: (c) => c.site.signInFailuresPerHourPerAddressAndEmail,
    label: 'failed sign-ins per email from one address per hour',
    request: 'sign-in request',
  },
  signInFailuresPerHourPerEmail: {
    window: 'hour',
    limit: (c) => c.site.signInFailuresPerHourPerEmail,
    label: 'failed sign-ins per email per hour (past that, only an address that has not failed for it may try)',
    request: 'sign-in request',
  },
  mcpSessionsPerHourPerAddress: {
    window: 'hour',
    limit: (c) => c.mcp.sessionsPerHourPerAddress,
    label: 'MCP sessions opened per address per hour',
    request: 'initialize request',
  },
};

export const FAIL_CLOSED_RETRY_SEC = 30;

interface Bucket {
  name: BucketName;
  scope: string;
}

export interface RateLimiter {
  /**
   * `POST /jobs`: per-IP hourly bucket first, then the global daily one. Given `tx` (the job's
   * own write), the hits are recorded in it and commit or roll back with the job; a store that
   * fails then throws, and the caller answers with `storeUnreachable`. `observe`, when given,
   * hears the buckets' standing after this request (`RateLimitReport`); with `tx` it hears it
   * before that transaction commits, so the caller holds it until then.
   */
  jobCreation(clientAddress: string, tx?: WriteTx, observe?: RateLimitObserver): Promise<Result<void>>;
  /** Submission POSTs: per-IP sliding hour, then global per minute, then global per day. */
  submission(clientAddress: string, observe?: RateLimitObserver): Promise<Result<void>>;
  adopt(accountId: string, observe?: RateLimitObserver): Promise<Result<void>>;
  /** Sign-up attempts: the address's bucket, shared with sign-in. */
  signUp(clientAddress: string): Promise<Result<void>>;
  /**
   * A sign-in attempt, before its password is checked: counted per address, then held against its
   * email's failures (`recordSignInAttempt`); scopes are keyed hashes, never the values. The
   * attempt counts as failed unless its `passed()` is called.
   */
  signIn(clientAddress: string, email: string): Promise<Result<SignInAttempt>>;
  /** An MCP `initialize` over streamable HTTP: each one opens a session the process holds. */
  mcpSession(clientAddress: string): Promise<Result<void>>;
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

  /** Records one hit per bucket in order; the first bucket that is full refuses (its index), and its hit is not recorded. */
  async function record(tx: WriteTx, buckets: CheckedBucket[], now: number): Promise<number | undefined> {
    for (const [index, { key, limit, window }] of buckets.entries()) {
      const since = windowStart(window, now);
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
      if (taken.rowsAffected === 0) return index;
    }
    return undefined;
  }

  /** The buckets with their live limits: the same numbers decide the 429 and fill the report. */
  const checked = (buckets: Bucket[]): CheckedBucket[] =>
    buckets.map(({ name, scope }) => ({
      name,
      key: `${name}:${scope}`,
      limit: specs[name].limit(config),
      window: specs[name].window,
    }));

  async function take(buckets: Bucket[], tx?: WriteTx, observe?: RateLimitObserver): Promise<Result<void>> {
    const now = clock.now();
    const list = checked(buckets);
    // The report is read in the transaction that records the hits, so it shows exactly the
    // state that decided this request.
    const decide = async (t: WriteTx): Promise<{ refusedAt?: number; report?: RateLimitReport }> => {
      const refusedAt = await record(t, list, now);
      return { refusedAt, report: observe ? await readReport(t, list, refusedAt, now) : undefined };
    };
    let decided: Awaited<ReturnType<typeof decide>>;
    if (tx) {
      decided = await decide(tx);
    } else {
      try {
        decided = await db.write(decide);
      } catch (cause) {
        return err(storeUnreachable(cause));
      }
    }
    if (decided.report) observe?.(decided.report);
    return decided.refusedAt === undefined ? ok(undefined) : err(rateLimited(list[decided.refusedAt]!.name, now));
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
      agent_instruction: words`Wait ${retryAfterSec} seconds before the next ${spec.request}; do not retry sooner.`,
      retryAfterSec,
    });
  }

  // Per-address buckets count an IPv6 client by its /64 (address-group.ts).
  const address = (clientAddress: string) => keyedHash('client', addressGroup(clientAddress)).slice(0, 32);

  /** Sign-in and sign-up attempts share their address's bucket. */
  const accountAttempt = (clientAddress: string) =>
    take([{ name: 'signInPerHourPerAddress', scope: address(clientAddress) }]);

  return {
    jobCreation: (clientAddress, tx, observe) =>
      take(
        [
          { name: 'jobsPerHourPerIp', scope: address(clientAddress) },
          { name: 'globalJobsPerDay', scope: '*' },
        ],
        tx,
        observe,
      ),
    submission: (clientAddress, observe) =>
      take(
        [
          { name: 'submissionsPerHourPerIp', scope: address(clientAddress) },
          { name: 'globalSubmissionsPerMinute', scope: '*' },
          { name: 'globalSubmissionsPerDay', scope: '*' },
        ],
        undefined,
        observe,
      ),
    adopt: (accountId, observe) => take([{ name: 'adoptsPerHourPerAccount', scope: accountId }], undefined, observe),
    signUp: accountAttempt,
    signIn: async (clientAddress, email) => {
      const counted = await accountAttempt(clientAddress);
      if (!counted.ok) return counted;
      const [fromAddress, forEmail] = checked([
        {
          name: 'signInFailuresPerHourPerAddressAndEmail',
          scope: keyedHash('sign-in', address(clientAddress), email).slice(0, 32),
        },
        { name: 'signInFailuresPerHourPerEmail', scope: keyedHash('email', email).slice(0, 32) },
      ]);
      const now = clock.now();
      try {
        const decided = await recordSignInAttempt(db, { fromAddress: fromAddress!, forEmail: forEmail! }, now);
        return 'attempt' in decided ? ok(decided.attempt) : err(rateLimited(decided.refusedBy, now));
      } catch (cause) {
        return err(storeUnreachable(cause));
      }
    },
    mcpSession: (clientAddress) => take([{ name: 'mcpSessionsPerHourPerAddress', scope: address(clientAddress) }]),
    storeUnreachable,
  };
}
