import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/database.ts';
import { serverKeys } from '../db/schema.ts';
import type { Randomness } from './randomness.ts';

/** HMAC-SHA-256 of the parts under the server key: stores a client's address without the address. */
export type KeyedHash = (...parts: string[]) => string;

const KEY_NAME = 'client-scope-hmac';

/** Loads the server key, creating it on first start; every instance on the database agrees on it. */
export async function loadKeyedHash(db: Database, random: Randomness): Promise<KeyedHash> {
  const candidate = Buffer.from(random.bytes(32)).toString('base64url');
  const key = await db.write(async (tx) => {
    await tx.insert(serverKeys).values({ name: KEY_NAME, value: candidate }).onConflictDoNothing();
    const [row] = await tx.select().from(serverKeys).where(eq(serverKeys.name, KEY_NAME));
    return row!.value;
  });
  return (...parts) => createHmac('sha256', key).update(parts.join('\u0000')).digest('hex');
}
