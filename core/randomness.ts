import { randomBytes, randomUUID } from 'node:crypto';

/** Ids and random bytes come in through this, never from globals inside domain code. */
export interface Randomness {
  uuid(): string;
  bytes(length: number): Uint8Array;
}

export const cryptoRandomness: Randomness = {
  uuid: () => randomUUID(),
  bytes: (length) => randomBytes(length),
};
