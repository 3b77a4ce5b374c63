import { fileURLToPath } from 'node:url';
import { createClient, type Client } from '@libsql/client';
import { drizzle, type LibSQLDatabase } from 'drizzle-orm/libsql';
import { migrate } from 'drizzle-orm/libsql/migrator';
import * as schema from './schema.ts';

export type Orm = LibSQLDatabase<typeof schema> & { $client: Client };
/** What a write transaction hands its callback: the ORM bound to that transaction. */
export type WriteTx = Parameters<Parameters<Orm['transaction']>[0]>[0];

export interface Database {
  /** For reads. Writes go through `write`, never straight through `orm`. */
  readonly orm: Orm;
  /**
   * Runs `fn` in one `BEGIN IMMEDIATE` transaction. Writes in this process are queued
   * one at a time: the embedded driver waits for a busy lock synchronously, so two
   * interleaved write transactions of one process would stall each other.
   */
  write<T>(fn: (tx: WriteTx) => Promise<T>): Promise<T>;
  close(): void;
}

export interface DatabaseOptions {
  url: string;
  authToken?: string;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
/** How long a write waits for another process holding the file's write lock. */
const busyTimeoutMs = 5000;

/** Opens the database and applies pending migrations before anything else may use it. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const client: Client = createClient({
    url: options.url,
    authToken: options.authToken,
    timeout: busyTimeoutMs,
  });
  if (options.url.startsWith('file:')) {
    // WAL lets reads proceed while a write transaction is open; it persists in the file.
    await client.execute('PRAGMA journal_mode = WAL');
  }
  const orm = drizzle(client, { schema });
  const queue = new WriteQueue();
  const database: Database = {
    orm,
    write: (fn) => queue.run(() => orm.transaction(fn)),
    close: () => client.close(),
  };
  await queue.run(() => migrate(orm, { migrationsFolder }));
  return database;
}

class WriteQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

/** Anything that can run queries: the database itself or an open transaction. */
export type Queryable = Orm | WriteTx;
