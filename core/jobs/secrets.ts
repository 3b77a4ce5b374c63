import { createHash, timingSafeEqual } from 'node:crypto';
import type { Randomness } from '../randomness.ts';

const SECRET_PREFIX = 'ajs_';

/** `ajs_` + 43 base64url characters (32 random bytes). Shown once; only its hash is stored. */
export const newJobSecret = (random: Randomness): string =>
  SECRET_PREFIX + Buffer.from(random.bytes(32)).toString('base64url');

export const sha256Hex = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** A hash of nothing anyone holds, compared against when the job is unknown so timing says nothing. */
const DECOY_HASH = sha256Hex('no job has this secret');

/** Constant-time comparison of a presented secret with a stored SHA-256 hash. */
export function secretMatches(presented: string | undefined, storedHash: string | undefined): boolean {
  const expected = Buffer.from(storedHash ?? DECOY_HASH, 'hex');
  const actual = Buffer.from(sha256Hex(presented ?? ''), 'hex');
  return timingSafeEqual(expected, actual) && presented !== undefined && storedHash !== undefined;
}

/** The credential of an `Authorization: Bearer …` header; the scheme word is case-insensitive. */
export function bearerToken(header: string | undefined | null): string | undefined {
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}
