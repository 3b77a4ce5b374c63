import { serve } from '@hono/node-server';
import { systemClock } from './core/clock.ts';
import { jsonLogger } from './core/logger.ts';
import { cryptoRandomness } from './core/randomness.ts';
import { readRunSettings } from './http/env.ts';
import { buildService } from './http/service.ts';

const log = jsonLogger();
const settings = readRunSettings(process.env);
const service = await buildService(settings, {
  clock: systemClock,
  random: cryptoRandomness,
  log,
});

const server = serve({ fetch: service.app.fetch, port: settings.port }, (info) => {
  log.info({ msg: 'listening', port: info.port, siteUrl: settings.siteUrl, apiEnabled: settings.apiEnabled });
});

/** Stop taking connections, let requests in flight finish, then close the database. */
function shutdown(signal: string): void {
  log.info({ msg: 'shutting down', signal });
  const force = setTimeout(() => process.exit(1), 30_000);
  force.unref();
  server.close(() => {
    void service.close().then(() => process.exit(0));
  });
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
