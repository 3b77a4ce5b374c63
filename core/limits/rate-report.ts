import { sql, type SQL } from 'drizzle-orm';
import type { WriteTx } from '../../db/database.ts';
import type { BucketName } from './rate-limiter.ts';
import { nextSlotIn, retryAfter, windowSeconds, windowStart, type Window } from './windows.ts';

/** One bucket as the limiter checks it: its stored key and its live limit and window. */
export interface CheckedBucket {
  name: BucketName;
  /** `name:scope`, the `rate_hits.bucket` value. */
  key: string;
  limit: number;
  window: Window;
}

/** A bucket's rule: at most `quota` counted requests per `windowSec` seconds. */
interface RatePolicy {
  name: BucketName;
  quota: number;
  windowSec: number;
}

/** Where a bucket stands after this request: `remaining` slots now, at least one more `resetSec` seconds from now. */
interface RateStanding {
  name: BucketName;
  remaining: number;
  resetSec: number;
}

/** What one counted (or refused) request leaves the caller to pace itself by. */
export interface RateLimitReport {
  /** Every bucket this kind of request is counted in, in the order they are checked. */
  policies: RatePolicy[];
  /**
   * The bucket or buckets with the fewest slots left (all of them on a tie, in check order); on a
   * refusal, the refusing bucket alone, at 0 with its `Retry-After`. Empty only when every bucket
   * provably has at least `CLOSE_TO_REFUSING` left (see `readReport`).
   */
  closest: RateStanding[];
}

export type RateLimitObserver = (report: RateLimitReport) => void;

/**
 * A bucket with fewer slots left than this is close to refusing, and is always counted exactly.
 * Above it counting would cost what the limiter's own check avoids (see `readReport`).
 */
export const CLOSE_TO_REFUSING = 1000;

/**
 * The standing of the buckets a request was checked against, read in the same transaction that
 * recorded its hits, from the same rows, window and limit that decided it: no second bookkeeping.
 * `refusedAt` is the index of the bucket that refused, if one did.
 *
 * Counting a window walks its hits. A window never holds more hits than its limit, so for limits
 * under `CLOSE_TO_REFUSING` that walk is short; a bucket with a larger limit is counted only if
 * the whole store (a bound on any window, read from the primary key) holds enough hits to bring it
 * under that mark. Otherwise it has at least that many left and is not the closest, unless every
 * bucket is that far from refusing; then `closest` is empty (the draft lets a server leave
 * `RateLimit` out while no quota is close to exhaustion). So limits raised far above the traffic
 * (benchmarks) cost primary-key lookups only, as in the limiter's own check. All of it is one
 * statement: over a remote database each statement is a round trip under the write lock.
 */
export async function readReport(
  tx: WriteTx,
  buckets: CheckedBucket[],
  refusedAt: number | undefined,
  now: number,
): Promise<RateLimitReport> {
  const policies = buckets.map(({ name, limit, window }) => ({ name, quota: limit, windowSec: windowSeconds(window) }));
  if (refusedAt !== undefined) {
    // A 429 names the bucket that refused; the draft asks that `t` then name the same instant as
    // Retry-After, so the buckets counted before it (whose next slot may come sooner) are left out.
    const refusing = buckets[refusedAt]!;
    return {
      policies,
      closest: [{ name: refusing.name, remaining: 0, resetSec: retryAfter(refusing.window, now) }],
    };
  }
  const row = await tx.get<Record<string, number | null>>(
    sql`SELECT ${sql.join(
      buckets.map((bucket, i) => windowColumns(bucket, i, now)),
      sql`, `,
    )}`,
  );
  const standings: RateStanding[] = [];
  let farFromRefusing = false;
  for (const [i, bucket] of buckets.entries()) {
    const hits = row[`hits${i}`];
    if (hits === null || hits === undefined) {
      farFromRefusing = true;
      continue;
    }
    const oldest = row[`oldest${i}`];
    standings.push({
      name: bucket.name,
      remaining: Math.max(0, bucket.limit - Number(hits)),
      resetSec: nextSlotIn(bucket.window, oldest === null || oldest === undefined ? now : Number(oldest), now),
    });
  }
  const fewest = Math.min(...standings.map((s) => s.remaining));
  const known = standings.length > 0 && (!farFromRefusing || fewest < CLOSE_TO_REFUSING);
  return { policies, closest: known ? standings.filter((s) => s.remaining === fewest) : [] };
}

/**
 * Bounds every window's hits: ids are unique, so the store holds at most max - min + 1 (the
 * limiter's own bound). max and min apart: SQLite reads each off the primary key only when it is
 * alone in its SELECT; together they scan the table.
 */
const STORED_HITS_AT_MOST = sql`coalesce((SELECT max(id) FROM rate_hits) - (SELECT min(id) FROM rate_hits) + 1, 0)`;

/**
 * `hits<i>`: the hits in the bucket's window now, or NULL when the store cannot hold enough to
 * bring it under `CLOSE_TO_REFUSING` (CASE leaves the count unevaluated). `oldest<i>`: the oldest
 * of them, the next to leave the window (an index seek, no walk).
 */
function windowColumns(bucket: CheckedBucket, i: number, now: number): SQL {
  const since = windowStart(bucket.window, now);
  const inWindow = sql`FROM rate_hits WHERE bucket = ${bucket.key} AND at > ${since}`;
  return sql`CASE WHEN ${bucket.limit} < ${CLOSE_TO_REFUSING} OR ${bucket.limit} - ${STORED_HITS_AT_MOST} < ${CLOSE_TO_REFUSING}
               THEN (SELECT count(*) ${inWindow}) END AS ${sql.raw(`hits${i}`)},
             (SELECT min(at) ${inWindow}) AS ${sql.raw(`oldest${i}`)}`;
}
