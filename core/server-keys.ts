import { eq } from 'drizzle-orm';
import type { Database } from '../db/database.ts';
import { serverKeys } from '../db/schema.ts';
import type { Randomness } from './randomness.ts';

/**
 * A named 32-byte server key (base64url), created on first start. Insert-or-ignore then read, in
 * one write transaction, so every instance on the database ends up with the same key.
 */
export async function loadServerKey(db: Database, random: Randomness, name: string): Promise<string> {
  const candidate = Buffer.from(random.bytes(32)).toString('base64url');
  return db.write(async (tx) => {
    await tx.insert(serverKeys).values({ name, value: candidate }).onConflictDoNothing();
    const [row] = await tx.select().from(serverKeys).where(eq(serverKeys.name, name));
    return row!.value;
  });
}
