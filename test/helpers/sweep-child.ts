/**
 * One more service instance in a process of its own, for tests of several instances sweeping
 * one database: `node test/helpers/sweep-child.ts <databaseUrl> <clockMs>` builds
 * the service on that database with its clock at `clockMs`, prints `ready`, waits for a line on
 * stdin (so the instances start together), sweeps once and prints the report as JSON.
 */
import { once } from 'node:events';
import { ManualClock } from '../../core/clock.ts';
import { silentLogger } from '../../core/logger.ts';
import { cryptoRandomness } from '../../core/randomness.ts';
import { buildService } from '../../service.ts';
import { ScriptedPipeline } from './scripted-pipeline.ts';

const [databaseUrl, clockMs] = process.argv.slice(2);
const service = await buildService(
  {
    port: 0,
    siteUrl: 'http://localhost:8787',
    databaseUrl: databaseUrl!,
    databaseAuthToken: undefined,
    configFile: undefined,
    apiEnabled: true,
    trustProxy: false,
  },
  {
    clock: new ManualClock(Number(clockMs)),
    random: cryptoRandomness,
    log: silentLogger,
    pipeline: new ScriptedPipeline().run,
  },
);
process.stdout.write('ready\n');
await once(process.stdin, 'data');
const report = await service.core.sweep();
await service.close();
process.stdout.write(`${JSON.stringify(report)}\n`);
process.stdin.destroy();
