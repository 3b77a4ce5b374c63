import { createHmac } from 'node:crypto';
import type { Database } from '../db/database.ts';
import type { Randomness } from './randomness.ts';
import { loadServerKey } from './server-keys.ts';

/** HMAC-SHA-256 of the parts under the server key: stores a client's address without the address. */
export type KeyedHash = (...parts: string[]) => string;

const KEY_NAME = 'client-scope-hmac';

/** Loads the server key, creating it on first start; every instance on the database agrees on it. */
export async function loadKeyedHash(db: Database, random: Randomness): Promise<KeyedHash> {
  const key = await loadServerKey(db, random, KEY_NAME);
  return (...parts) => createHmac('sha256', key).update(parts.join('\u0000')).digest('hex');
}
