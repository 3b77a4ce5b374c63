import { statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.ts';
import { healthProbe } from './schema.ts';

/**
 * Below this much free space on the embedded database's file system the service reports itself
 * not ready: an upload stores a drawing copy and two SVGs (up to a few MB with the WAL), and
 * SQLite answers SQLITE_FULL long before the last byte is gone.
 */
export const MIN_FREE_DISK_BYTES = 32 * 1024 * 1024;

/** Readiness checks of the database (`/healthz`): it answers, it takes a write, its disk has room. */
export function databaseReadiness(
  db: Database,
  databaseUrl: string,
  clock: { now(): number },
): Record<string, () => Promise<string>> {
  const folder = embeddedFolder(databaseUrl);
  return {
    database: async () => {
      await db.orm.$client.execute('select 1');
      return 'ok';
    },
    writes: async () => {
      const at = clock.now();
      await db.write((tx) =>
        tx.insert(healthProbe).values({ id: 1, at }).onConflictDoUpdate({ target: healthProbe.id, set: { at } }),
      );
      return 'ok';
    },
    ...(folder && {
      disk: async () => {
        const space = await statfs(folder);
        return space.bavail * space.bsize >= MIN_FREE_DISK_BYTES ? 'ok' : 'full';
      },
    }),
  };
}

/** The folder of an embedded database file; undefined for a server or an in-memory database. */
export function embeddedFolder(url: string): string | undefined {
  if (!url.startsWith('file:') || url === 'file::memory:') return undefined;
  const path = url.startsWith('file://') ? fileURLToPath(url) : url.slice('file:'.length).split('?')[0]!;
  return dirname(path);
}
