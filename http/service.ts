import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Hono } from 'hono';
import { openDatabase, type Database } from '../db/database.ts';
import type { Clock } from '../core/clock.ts';
import { loadConfig } from '../core/config.ts';
import { createCore, type Core } from '../core/index.ts';
import type { Logger } from '../core/logger.ts';
import { startSweeping } from '../core/maintenance/scheduler.ts';
import type { Pipeline } from '../core/pipeline/types.ts';
import { createPipelinePool } from '../core/pipeline/worker-pool.ts';
import type { Randomness } from '../core/randomness.ts';
import { serviceUrls } from '../core/urls.ts';
import { createApp } from './app.ts';
import type { RunSettings } from './env.ts';

export interface Service {
  app: Hono;
  core: Core;
  db: Database;
  /**
   * Ends the MCP sessions and exchanges still open, whose streams would otherwise keep the
   * listener from closing (shutdown's first step). An upload they carried still finishes.
   */
  closeMcp(): Promise<void>;
  /**
   * Stops the sweeper and the MCP endpoint, lets uploads being processed finish (at most
   * `UPLOAD_DRAIN_MS`), then stops the pipeline workers and closes the database.
   */
  close(): Promise<void>;
}

/** How long `close()` waits for uploads in flight; an upload cut off later is closed as interrupted. */
export const UPLOAD_DRAIN_MS = 25_000;

/**
 * Wires database, pipeline, core and app from the run settings; nothing here listens on a
 * port. Without an injected pipeline, the real one runs in a pool of worker threads.
 */
export async function buildService(
  settings: RunSettings,
  parts: {
    clock: Clock;
    random: Randomness;
    log: Logger;
    pipeline?: Pipeline;
    /** Sweep at start and then this often (`SWEEP_EVERY_MS`); off when absent, as tests call `core.sweep()`. */
    sweepEveryMs?: number;
  },
): Promise<Service> {
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
  const sweeping = sweepEveryMs
    ? await startSweeping(core.sweep, { everyMs: sweepEveryMs, log: parts.log })
    : undefined;
  const { app, mcp } = createApp({
    core,
    log: parts.log,
    random: parts.random,
    ping: () => db.orm.$client.execute('select 1'),
    apiEnabled: settings.apiEnabled,
    trustProxy: settings.trustProxy,
  });
  return {
    app,
    core,
    db,
    closeMcp: () => mcp.close(),
    async close() {
      await sweeping?.stop();
      await mcp.close();
      if (!(await core.uploadsSettled(UPLOAD_DRAIN_MS))) {
        parts.log.warn({ msg: 'closing with uploads still running; they will read as interrupted' });
      }
      await pool?.close();
      db.close();
    },
  };
}

/** The embedded database is created on first start, folder included. */
function ensureDatabaseFolder(url: string): void {
  if (!url.startsWith('file:') || url === 'file::memory:') return;
  const path = url.startsWith('file://') ? fileURLToPath(url) : url.slice('file:'.length).split('?')[0]!;
  mkdirSync(dirname(path), { recursive: true });
}
