import { inArray, sql } from 'drizzle-orm';
import type { Database, WriteTx } from '../../db/database.ts';
import { rateHits } from '../../db/schema.ts';
import type { BucketName } from './rate-limiter.ts';
import type { CheckedBucket } from './rate-report.ts';
import { windowStart } from './windows.ts';

/** A sign-in let through to its password check; it stands as a failure until the password proves right. */
export interface SignInAttempt {
  /** The password was right: the attempt is taken back out of the failure buckets. */
  passed(): Promise<void>;
}

/** The two failure buckets of one sign-in: its email from its address, and its email from anywhere. */
interface FailureBuckets {
  /** Refuses once full: one address guessing at one email. */
  fromAddress: CheckedBucket;
  /**
   * Once full, refuses only addresses that have failed for this email too: a person whose email is
   * under attack from elsewhere still signs in from their own address.
   */
  forEmail: CheckedBucket;
}

/**
 * Checks the failure buckets and records the attempt in both as failed, in one write transaction,
 * before the password is checked. Recording first means concurrent attempts see each other: a
 * fresh address cannot get many guesses past a full email bucket by sending them at once. Returns
 * the bucket that refuses, or the attempt; a store that fails throws.
 */
export async function recordSignInAttempt(
  db: Database,
  buckets: FailureBuckets,
  now: number,
): Promise<{ refusedBy: BucketName } | { attempt: SignInAttempt }> {
  const { fromAddress, forEmail } = buckets;
  const decided = await db.write(async (tx): Promise<{ refusedBy: BucketName } | { ids: number[] }> => {
    const row = await tx.get<{ fromAddress: number; forEmail: number }>(
      sql`SELECT ${failures(fromAddress, now)} AS fromAddress, ${failures(forEmail, now)} AS forEmail`,
    );
    const addressFailed = Number(row.fromAddress);
    if (addressFailed >= fromAddress.limit) return { refusedBy: fromAddress.name };
    if (Number(row.forEmail) >= forEmail.limit && addressFailed > 0) return { refusedBy: forEmail.name };
    return { ids: await recordFailure(tx, [fromAddress.key, forEmail.key], now) };
  });
  if ('refusedBy' in decided) return decided;
  const { ids } = decided;
  const attempt: SignInAttempt = {
    passed: async () => {
      await db.write((tx) => tx.delete(rateHits).where(inArray(rateHits.id, ids)));
    },
  };
  return { attempt };
}

/**
 * The bucket's failures in its window, counted up to its limit only: past the limit the answer is
 * the same, and a full email bucket keeps taking failures from fresh addresses.
 */
const failures = (bucket: CheckedBucket, now: number) =>
  sql`(SELECT count(*) FROM (SELECT 1 FROM rate_hits WHERE bucket = ${bucket.key} AND at > ${windowStart(bucket.window, now)} LIMIT ${bucket.limit}))`;

async function recordFailure(tx: WriteTx, keys: string[], now: number): Promise<number[]> {
  const rows = await tx
    .insert(rateHits)
    .values(keys.map((bucket) => ({ bucket, at: now })))
    .returning({ id: rateHits.id });
  return rows.map((row) => row.id);
}
