import { systemClock } from './core/clock.ts';
import { jsonLogger } from './core/logger.ts';
import { SWEEP_EVERY_MS } from './core/maintenance/sweeper.ts';
import { cryptoRandomness } from './core/randomness.ts';
import { readRunSettings } from './env.ts';
import { listen, stopListening } from './http/server-options.ts';
import { buildService, UPLOAD_DRAIN_MS } from './service.ts';

const log = jsonLogger();
const settings = readRunSettings(process.env);
const service = await buildService(settings, {
  clock: systemClock,
  random: cryptoRandomness,
  log,
  sweepEveryMs: SWEEP_EVERY_MS,
});

const server = listen({ fetch: service.app.fetch, port: settings.port }, (info) => {
  log.info({ msg: 'listening', port: info.port, siteUrl: settings.siteUrl, apiEnabled: settings.apiEnabled });
});

let stopping = false;

/**
 * Stop taking connections, let requests in flight finish (uploads included, even one whose
 * client left), then stop the sweeper, the workers and the database. MCP sessions and exchanges
 * end at once, as their open streams would hold the listener open (an upload one carried still
 * finishes, and the same PNG sent again gets its outcome). Bounded: what still runs after the drain is
 * cut off, and the sweep closes it as interrupted.
 */
function shutdown(signal: string): void {
  if (stopping) return;
  stopping = true;
  log.info({ msg: 'shutting down', signal });
  const force = setTimeout(() => process.exit(1), UPLOAD_DRAIN_MS + 5_000);
  force.unref();
  stopListening(server, () => {
    void service.close().then(() => process.exit(0));
  });
  void service.closeMcp();
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
