import type { Randomness } from '../randomness.ts';

/** Base58: no 0, O, I or l, so a person can read a link aloud. */
export const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
export const APPROVAL_TOKEN_LENGTH = 12;
export const APPROVAL_TOKEN_PATTERN = /^[1-9A-HJ-NP-Za-km-z]{12}$/;

/** A 12-character base58 token from a CSPRNG, without modulo bias (rejection sampling). */
export function newApprovalToken(random: Randomness): string {
  let token = '';
  const limit = 256 - (256 % BASE58.length);
  while (token.length < APPROVAL_TOKEN_LENGTH) {
    for (const byte of random.bytes(APPROVAL_TOKEN_LENGTH * 2)) {
      if (byte < limit && token.length < APPROVAL_TOKEN_LENGTH) token += BASE58[byte % BASE58.length];
    }
  }
  return token;
}
