import { hostname } from 'node:os';
import { and, eq, or } from 'drizzle-orm';
import { submissions, type SubmissionRow } from '../../db/schema.ts';
import { SECOND } from '../clock.ts';
import type { CoreDeps } from '../deps.ts';
import { errorText } from '../logger.ts';
import { closeInterrupted, type Interruption } from './interrupted.ts';

/**
 * How long a `processing` row stays this process's without renewal. Renewed every
 * `LEASE_RENEW_EVERY_MS`, so three renewals in a row must fail (a database stalled for 20 s)
 * before another instance may take the row as abandoned.
 */
export const LEASE_MS = 20 * SECOND;
export const LEASE_RENEW_EVERY_MS = 5 * SECOND;

/** The process an upload runs in: where a restarted instance recognises its predecessors. */
export interface ProcessIdentity {
  host: string;
  pid: number;
  /** False once no process with this pid runs on this host. */
  isRunning(pid: number): boolean;
}

export const thisProcess = (): ProcessIdentity => ({ host: hostname(), pid: process.pid, isRunning });

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (cause) {
    // EPERM: it runs, as another user.
    return (cause as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Owners alive in this process. Several cores may share one process (tests, or an embedder):
 * a row whose owner has this pid is abandoned only when its owner is not among them.
 */
const ownersHere = new Set<string>();

/** A submission row, by job and number. */
export interface RowKey {
  jobId: string;
  no: number;
}

type OwnerColumns = Pick<SubmissionRow, 'ownerId' | 'ownerHost' | 'ownerPid' | 'leaseUntil'>;

/**
 * This process's claim on the uploads it runs. A row it reserves carries its owner and a lease;
 * while the upload runs the row is held and its lease renewed. Any instance may close a
 * `processing` row as interrupted once it is abandoned (`isAbandoned`).
 */
export interface UploadLeases {
  /** The owner columns of a row reserved now. */
  claim(now: number): OwnerColumns;
  hold(row: RowKey): void;
  release(row: RowKey): void;
  /** True when the process that reserved the row no longer runs it. Rows from before leases: never. */
  isAbandoned(row: RowKey & OwnerColumns, now: number): boolean;
  /**
   * Closes a row this process could not finish (its outcome could not be stored). Tried at once;
   * while the database refuses, tried again on every renewal until it takes it.
   */
  abandon(row: RowKey): Promise<void>;
  /** Extends the lease of every held row, and retries the closes the database refused. */
  renew(): Promise<void>;
  /** Forget this owner: its rows read as abandoned from now on. */
  retire(): void;
}

type LeaseDeps = Pick<CoreDeps, 'db' | 'clock' | 'random' | 'log' | 'config'>;

export function createUploadLeases(deps: LeaseDeps, identity: ProcessIdentity): UploadLeases {
  const ownerId = deps.random.uuid();
  ownersHere.add(ownerId);
  const held = new Map<string, RowKey>();
  const toClose = new Map<string, RowKey>();
  const keyOf = (row: RowKey) => `${row.jobId}/${row.no}`;

  const close = async (rows: RowKey[], why: Interruption): Promise<void> => {
    await deps.db.write(async (tx) => {
      for (const row of rows) await closeInterrupted(tx, row, why, deps);
    });
  };

  return {
    claim: (now) => ({ ownerId, ownerHost: identity.host, ownerPid: identity.pid, leaseUntil: now + LEASE_MS }),
    hold: (row) => void held.set(keyOf(row), row),
    release: (row) => void held.delete(keyOf(row)),
    isAbandoned(row, now) {
      if (row.ownerId === null) return false;
      if (row.ownerId === ownerId) return !held.has(keyOf(row));
      if (row.leaseUntil !== null && row.leaseUntil <= now) return true;
      if (row.ownerHost !== identity.host || row.ownerPid === null) return false;
      return row.ownerPid === identity.pid ? !ownersHere.has(row.ownerId) : !identity.isRunning(row.ownerPid);
    },
    async abandon(row) {
      try {
        await close([row], 'unstored');
      } catch (cause) {
        toClose.set(keyOf(row), row);
        deps.log.warn({
          msg: 'upload could not be closed yet; retried on the next lease renewal',
          ...row,
          err: errorText(cause),
        });
      }
    },
    async renew() {
      // The running uploads first: a close the database keeps refusing must not cost them their leases.
      if (held.size > 0) {
        const rows = [...held.values()].map((row) => and(eq(submissions.jobId, row.jobId), eq(submissions.no, row.no)));
        const leaseUntil = deps.clock.now() + LEASE_MS;
        await deps.db.write((tx) =>
          tx
            .update(submissions)
            .set({ leaseUntil })
            .where(and(eq(submissions.ownerId, ownerId), eq(submissions.status, 'processing'), or(...rows))),
        );
      }
      if (toClose.size > 0) {
        const rows = [...toClose.values()];
        await close(rows, 'unstored');
        for (const row of rows) toClose.delete(keyOf(row));
      }
    },
    retire: () => void ownersHere.delete(ownerId),
  };
}
