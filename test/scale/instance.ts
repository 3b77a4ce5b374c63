/**
 * One service instance for the scale-out tests, run as its own process (`node`):
 * server.ts's wiring and run interface (DATABASE_URL, CONFIG_FILE, SITE_URL, TRUST_PROXY, PORT),
 * real clock, real HTTP, the sweeper on (every SCALE_SWEEP_EVERY_MS), but the scripted pipeline
 * instead of the image one, slowed by SCALE_PIPELINE_DELAY_MS so that uploads racing on two
 * instances overlap. Its JSON log goes to stdout. Once its modules are loaded it says `loaded` and
 * waits for `go` on stdin, so that the test can open both instances' database at the same moment;
 * then it says `listening`. It exits when the test process closes its stdin.
 */
import { serve } from '@hono/node-server';
import { systemClock } from '../../core/clock.ts';
import { jsonLogger } from '../../core/logger.ts';
import type { Pipeline } from '../../core/pipeline/types.ts';
import { cryptoRandomness } from '../../core/randomness.ts';
import { readRunSettings } from '../../env.ts';
import { buildService } from '../../service.ts';
import { ScriptedPipeline } from '../helpers/scripted-pipeline.ts';

const log = jsonLogger();
const settings = readRunSettings(process.env);
log.info({ msg: 'loaded' });
await waitForGo();
const delayMs = Number(process.env.SCALE_PIPELINE_DELAY_MS ?? 0);
const scripted = new ScriptedPipeline();
const pipeline: Pipeline = async (input) => {
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  return scripted.run(input);
};
const service = await buildService(settings, {
  clock: systemClock,
  random: cryptoRandomness,
  log,
  pipeline,
  sweepEveryMs: Number(process.env.SCALE_SWEEP_EVERY_MS),
});

const server = serve({ fetch: service.app.fetch, port: settings.port, hostname: '127.0.0.1' }, (info) => {
  log.info({ msg: 'listening', port: info.port });
});

let stopping = false;
function shutdown(): void {
  if (stopping) return;
  stopping = true;
  server.close(() => void service.close().then(() => process.exit(0)));
}
process.on('SIGTERM', shutdown);
process.stdin.on('end', shutdown);

function waitForGo(): Promise<void> {
  return new Promise((resolve) => {
    const exitEarly = () => process.exit(0);
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (!text.includes('go\n')) return;
      process.stdin.off('data', onData).off('end', exitEarly);
      resolve();
    };
    process.stdin.on('data', onData).once('end', exitEarly);
  });
}
