import { fileURLToPath } from 'node:url';
import { createClient, type Client } from '@libsql/client';
import { sql } from 'drizzle-orm';
import { drizzle, type LibSQLDatabase } from 'drizzle-orm/libsql';
import { migrate } from 'drizzle-orm/libsql/migrator';
import * as schema from './schema.ts';

type Orm = LibSQLDatabase<typeof schema> & { $client: Client };
/** What a write transaction hands its callback: the ORM bound to that transaction. */
export type WriteTx = Parameters<Parameters<Orm['transaction']>[0]>[0];

export interface Database {
  /** For reads. Writes go through `write`, never straight through `orm`. */
  readonly orm: Orm;
  /**
   * Runs `fn` atomically in a `BEGIN IMMEDIATE` transaction and resolves once it is committed.
   * Writes in this process are queued one at a time: the embedded driver waits for a busy lock
   * synchronously, so two interleaved write transactions of one process would stall each other.
   * Writes queued together share one transaction (group commit, see `WriteQueue`).
   */
  write<T>(fn: (tx: WriteTx) => Promise<T>): Promise<T>;
  close(): void;
}

interface DatabaseOptions {
  url: string;
  authToken?: string;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
/** How long a write waits for another process holding the file's write lock. */
const busyTimeoutMs = 5000;

/**
 * How long one request to a libSQL server may take. A server that stalls (rather than refusing
 * connections) would otherwise hold every request waiting on it with no limit; past this the
 * statement fails and the request is answered 500 PROCESSING_FAILED, as when the server is down.
 */
export const REMOTE_REQUEST_TIMEOUT_MS = 10_000;

/** The libSQL client's HTTP requests, each bounded by REMOTE_REQUEST_TIMEOUT_MS. */
const boundedFetch = (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
  const limit = AbortSignal.timeout(REMOTE_REQUEST_TIMEOUT_MS);
  const own = init?.signal ?? (input instanceof Request ? input.signal : undefined);
  // The client's only outbound HTTP: to the database server DATABASE_URL names.
  // eslint-disable-next-line no-restricted-globals
  return fetch(input, { ...init, signal: own ? AbortSignal.any([own, limit]) : limit });
};

/** Opens the database and applies pending migrations before anything else may use it. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const client: Client = createClient({
    url: options.url,
    authToken: options.authToken,
    timeout: busyTimeoutMs,
    fetch: boundedFetch,
  });
  if (options.url.startsWith('file:')) {
    // WAL lets reads proceed while a write transaction is open; it persists in the file.
    await switchToWal(client);
  }
  const orm = drizzle(client, { schema });
  // Nothing else can write yet: the database is handed out only after its migrations.
  await applyMigrations(orm);
  const queue = new WriteQueue(orm);
  return {
    orm,
    write: (fn) => queue.run(fn),
    close: () => client.close(),
  };
}

/**
 * Two instances opening a fresh file at once both switch it to WAL. The switch takes the file's
 * exclusive lock, and one that finds the other mid-switch (or migrating in the old journal mode)
 * gets SQLITE_BUSY at once: SQLite does not wait in the busy handler where waiting could deadlock.
 * So the switch is tried again after a short pause; the other instance is done within milliseconds.
 */
async function switchToWal(client: Client, attempts = 5): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await client.execute('PRAGMA journal_mode = WAL');
      return;
    } catch (error) {
      if (attempt >= attempts || (error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

/**
 * Instances started together on a fresh database all find the same migrations pending. Each
 * applies them as one batch, so the later batch fails whole (its tables exist) and rolls back;
 * that instance reads the applied list again and finds nothing left to do.
 */
async function applyMigrations(orm: Orm, attempts = 3): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await migrate(orm, { migrationsFolder });
    } catch (error) {
      if (attempt >= attempts) throw error;
    }
  }
}

/** At most this many writes share a transaction, so that no commit waits behind a long queue. */
const MAX_GROUP = 64;

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

interface QueuedWrite {
  fn: (tx: WriteTx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit. The writes queued while a transaction runs share the next one, each inside its
 * own savepoint: they run one at a time in queue order, each seeing the ones before it, a write
 * that throws is rolled back alone, and every caller hears back only after the shared COMMIT, so
 * nothing is answered that is not on disk. What is saved is a commit (an fsync of the WAL) per
 * write, which otherwise caps writes at the disk's fsync rate.
 */
class WriteQueue {
  private queued: QueuedWrite[] = [];
  private running = false;

  private readonly orm: Orm;
  constructor(orm: Orm) {
    this.orm = orm;
  }

  run<T>(fn: (tx: WriteTx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queued.push({ fn, resolve: resolve as (value: unknown) => void, reject });
      this.next();
    });
  }

  private next(): void {
    if (this.running || this.queued.length === 0) return;
    this.running = true;
    // The embedded driver never yields, so the event loop gets one turn first: requests read
    // meanwhile queue their writes and join this group.
    setImmediate(() => {
      void this.commitGroup(this.queued.splice(0, MAX_GROUP)).finally(() => {
        this.running = false;
        this.next();
      });
    });
  }

  private async commitGroup(group: QueuedWrite[]): Promise<void> {
    const outcomes: Outcome[] = [];
    let broken = false;
    try {
      await this.orm.transaction(async (tx) => {
        for (const write of group) {
          const outcome = await inSavepoint(tx, write.fn);
          outcomes.push(outcome);
          if ('broken' in outcome) {
            broken = true;
            throw outcome.broken;
          }
        }
      });
    } catch (error) {
      // Nothing of the group was committed: the writes that ran fail (those that threw with their
      // own error). After a write that broke the transaction, the rest never ran: they go first
      // in the next group.
      group.slice(0, outcomes.length).forEach((write, i) => {
        const outcome = outcomes[i]!;
        write.reject(outcome.ok ? error : outcome.error);
      });
      const notRun = group.slice(outcomes.length);
      if (broken) this.queued.unshift(...notRun);
      else notRun.forEach((write) => write.reject(error));
      return;
    }
    group.forEach((write, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) write.resolve(outcome.value);
      else write.reject(outcome.error);
    });
  }
}

/**
 * Runs one write in a savepoint of the shared transaction. `broken` is set when the savepoint
 * cannot be rolled back because SQLite already rolled back the whole transaction (an I/O or
 * memory error); the group is lost then.
 */
async function inSavepoint(
  tx: WriteTx,
  fn: (tx: WriteTx) => Promise<unknown>,
): Promise<Outcome | { ok: false; error: unknown; broken: unknown }> {
  await tx.run(sql.raw('SAVEPOINT queued_write'));
  try {
    const value = await fn(tx);
    await tx.run(sql.raw('RELEASE queued_write'));
    return { ok: true, value };
  } catch (error) {
    try {
      await tx.run(sql.raw('ROLLBACK TO queued_write'));
      await tx.run(sql.raw('RELEASE queued_write'));
    } catch (broken) {
      return { ok: false, error, broken };
    }
    return { ok: false, error };
  }
}

/** Anything that can run queries: the database itself or an open transaction. */
export type Queryable = Orm | WriteTx;
