import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Hono } from 'hono';
import { openDatabase, type Database } from '../db/database.ts';
import type { Clock } from '../core/clock.ts';
import { loadConfig } from '../core/config.ts';
import { createCore, type Core } from '../core/index.ts';
import type { Logger } from '../core/logger.ts';
import type { Pipeline } from '../core/pipeline/types.ts';
import type { Randomness } from '../core/randomness.ts';
import { serviceUrls } from '../core/urls.ts';
import { createApp } from './app.ts';
import type { RunSettings } from './env.ts';

export interface Service {
  app: Hono;
  core: Core;
  db: Database;
}

/** Wires database, core and app from the run settings; nothing here listens on a port. */
export async function buildService(
  settings: RunSettings,
  parts: { clock: Clock; random: Randomness; log: Logger; pipeline: Pipeline },
): Promise<Service> {
  const config = loadConfig(settings.configFile);
  ensureDatabaseFolder(settings.databaseUrl);
  const db = await openDatabase({ url: settings.databaseUrl, authToken: settings.databaseAuthToken });
  const core = await createCore({ db, config, urls: serviceUrls(settings.siteUrl), ...parts });
  const app = createApp({ core, log: parts.log, apiEnabled: settings.apiEnabled, trustProxy: settings.trustProxy });
  return { app, core, db };
}

/** The embedded database is created on first start, folder included. */
function ensureDatabaseFolder(url: string): void {
  if (!url.startsWith('file:') || url === 'file::memory:') return;
  const path = url.startsWith('file://') ? fileURLToPath(url) : url.slice('file:'.length).split('?')[0]!;
  mkdirSync(dirname(path), { recursive: true });
}
