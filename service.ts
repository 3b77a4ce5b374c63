import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { Hono } from 'hono';
import type { Clock } from './core/clock.ts';
import { loadConfig } from './core/config.ts';
import { createCore, type Core } from './core/create-core.ts';
import type { Logger } from './core/logger.ts';
import { startRenewing, startSweeping } from './core/maintenance/scheduler.ts';
import type { ProcessIdentity } from './core/maintenance/upload-leases.ts';
import type { Pipeline } from './core/pipeline/types.ts';
import { createPipelinePool } from './core/pipeline/runtime/worker-pool.ts';
import type { Randomness } from './core/randomness.ts';
import { serviceUrls } from './core/urls.ts';
import { openDatabase, type Database } from './db/database.ts';
import { databaseReadiness, embeddedFolder } from './db/readiness.ts';
import type { RunSettings } from './env.ts';
import { createApp } from './http/app.ts';
import { createMcpEndpoint, MCP_PATH } from './mcp/http.ts';

/**
 * The composition root: the one place that builds the core and the adapters over it, and that
 * picks nothing itself (the clock, the randomness and the logger come from the entry point:
 * `server.ts`, `mcp/stdio.ts`, or a test). Nothing here listens on a port or reads stdin.
 */

/** What an entry point hands the root besides the run settings. */
export interface Parts {
  clock: Clock;
  random: Randomness;
  log: Logger;
  /** Runs in place of the real pipeline (whose worker threads then never start). */
  pipeline?: Pipeline;
  /** Sweep at start and then this often (`SWEEP_EVERY_MS`); off when absent, as tests call `core.sweep()`. */
  sweepEveryMs?: number;
  /** The process uploads run in; this process when absent. */
  identity?: ProcessIdentity;
}

/** The run settings the core needs: no port, no proxy, no API switch. */
export type CoreSettings = Pick<RunSettings, 'siteUrl' | 'databaseUrl' | 'databaseAuthToken' | 'configFile'>;

/** The core with what it runs on. */
export interface BuiltCore {
  core: Core;
  db: Database;
  /**
   * Stops the sweeper, lets uploads being processed finish (at most `UPLOAD_DRAIN_MS`), then
   * stops the pipeline workers and closes the database.
   */
  close(): Promise<void>;
}

/** The HTTP service: the core, and the app serving the API, the site and `/mcp` over it. */
export interface Service extends BuiltCore {
  app: Hono;
  /**
   * Ends the MCP sessions and exchanges still open, whose streams would otherwise keep the
   * listener from closing (shutdown's first step). An upload they carried still finishes.
   */
  closeMcp(): Promise<void>;
  /** Ends the MCP sessions and exchanges, then closes the core (`BuiltCore.close`). */
  close(): Promise<void>;
}

/** How long `close()` waits for uploads in flight; an upload cut off later is closed as interrupted. */
export const UPLOAD_DRAIN_MS = 25_000;

/**
 * Database, pipeline, core and sweeper: what every transport serves. Without an injected
 * pipeline, the real one runs in a pool of worker threads.
 */
export async function buildCore(settings: CoreSettings, parts: Parts): Promise<BuiltCore> {
  const { sweepEveryMs, ...coreParts } = parts;
  const config = loadConfig(settings.configFile);
  ensureDatabaseFolder(settings.databaseUrl);
  const db = await openDatabase({ url: settings.databaseUrl, authToken: settings.databaseAuthToken });
  const pool = parts.pipeline
    ? undefined
    : createPipelinePool({
        size: availableParallelism(),
        timeoutMs: config.limits.tracerTimeoutSec * 1000,
        heavyPixels: config.image.maxPixels / 2,
      });
  const pipeline = parts.pipeline ?? pool!.pipeline;
  const core = await createCore({ db, config, urls: serviceUrls(settings.siteUrl), ...coreParts, pipeline });
  const renewing = startRenewing(core, parts.log);
  const sweeping = sweepEveryMs
    ? await startSweeping(core.sweep, { everyMs: sweepEveryMs, log: parts.log })
    : undefined;
  return {
    core,
    db,
    async close() {
      await sweeping?.stop();
      if (!(await core.uploadsSettled(UPLOAD_DRAIN_MS))) {
        parts.log.warn({ msg: 'closing with uploads still running; they will read as interrupted' });
      }
      await renewing.stop();
      core.retire();
      await pool?.close();
      db.close();
    },
  };
}

/** The core and the HTTP app over it, the MCP endpoint mounted at `/mcp`; nothing listens yet. */
export async function buildService(settings: RunSettings, parts: Parts): Promise<Service> {
  const built = await buildCore(settings, parts);
  const { core, db } = built;
  const mcp = createMcpEndpoint({
    core,
    log: parts.log,
    trustProxy: settings.trustProxy,
    clock: parts.clock,
    random: parts.random,
  });
  const app = createApp({
    core,
    log: parts.log,
    random: parts.random,
    readiness: databaseReadiness(db, settings.databaseUrl, parts.clock),
    apiEnabled: settings.apiEnabled,
    trustProxy: settings.trustProxy,
    endpoints: [{ path: MCP_PATH, handle: (request, address) => mcp.handle(request, address) }],
  });
  return {
    app,
    core,
    db,
    closeMcp: () => mcp.close(),
    async close() {
      await mcp.close();
      await built.close();
    },
  };
}

/** The embedded database is created on first start, folder included. */
function ensureDatabaseFolder(url: string): void {
  const folder = embeddedFolder(url);
  if (folder) mkdirSync(folder, { recursive: true });
}
