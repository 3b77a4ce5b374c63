/**
 * `db.write` under concurrent callers (group commit, db/database.ts): writes queued together
 * share one transaction, yet each is atomic on its own, runs in queue order, and is answered
 * only once it is committed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../db/database.ts';
import { rateHits } from '../db/schema.ts';

let dir: string;
let db: Database;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
  db = await openDatabase({ url: `file:${join(dir, 'test.db')}` });
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const hit = (bucket: string) => db.write((tx) => tx.insert(rateHits).values({ bucket, at: 1 }));
/** Read on another connection than the writer's: it sees committed rows only. */
const committed = async (bucket: string) =>
  (await db.orm.select({ n: count() }).from(rateHits).where(eq(rateHits.bucket, bucket)))[0]!.n;

describe('db.write with concurrent callers', () => {
  it('rolls back a write that throws alone, rejects it with its own error, and commits the others', async () => {
    const failure = new Error('this write fails after its insert');
    const writes = [
      hit('a'),
      db.write(async (tx) => {
        await tx.insert(rateHits).values({ bucket: 'b', at: 1 });
        throw failure;
      }),
      hit('c'),
    ];
    const settled = await Promise.allSettled(writes);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason).toBe(failure);
    expect([await committed('a'), await committed('b'), await committed('c')]).toEqual([1, 0, 1]);
  });

  it('runs writes in the order they were queued, each seeing the ones before it', async () => {
    const seen = await Promise.all(
      Array.from({ length: 20 }, () =>
        db.write(async (tx) => {
          const [row] = await tx.select({ n: count() }).from(rateHits);
          await tx.insert(rateHits).values({ bucket: 'order', at: row!.n });
          return row!.n;
        }),
      ),
    );
    expect(seen).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('answers a write only once it is committed, not when its own part of the group is done', async () => {
    const visibleToNext: number[] = [];
    const first = hit('first');
    // Queued with the first, so in its transaction: another connection cannot see the first yet.
    const second = db.write(async (tx) => {
      visibleToNext.push(await committed('first'));
      await tx.insert(rateHits).values({ bucket: 'second', at: 1 });
    });
    await first;
    expect(await committed('first')).toBe(1);
    await second;
    expect(visibleToNext).toEqual([0]);
    expect(await committed('second')).toBe(1);
  });

  it('fails the writes that ran in a lost transaction and runs the ones queued after them in the next', async () => {
    await hit('before');
    const lost = hit('lost');
    // Ends the shared transaction under the group's feet, as SQLite does after an I/O error.
    const breaking = db.write((tx) => tx.run(sql.raw('ROLLBACK')));
    const queuedAfter = hit('queued after');
    const settled = await Promise.allSettled([lost, breaking, queuedAfter]);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
    await hit('after');
    expect(await Promise.all(['before', 'lost', 'queued after', 'after'].map(committed))).toEqual([1, 0, 1, 1]);
  });
});
