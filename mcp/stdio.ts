import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { systemClock } from '../core/clock.ts';
import { errorText, jsonLogger } from '../core/index.ts';
import { cryptoRandomness } from '../core/randomness.ts';
import { readRunSettings } from '../env.ts';
import { buildCore } from '../service.ts';
import { createMcpServer } from './server.ts';

/**
 * The stdio MCP server (`npm run mcp`): the same configuration, database and core as the HTTP
 * service (no HTTP app, no sweeper), one connection per process. It serves either protocol
 * revision, pinned to the one the client opens with: a 2025-11-25 client gets the initialize
 * handshake and a process-scoped session key, a 2026-07-28 client none (its jobs are named by
 * handles). stdout carries only protocol messages; logs go to stderr.
 */

/** The rate-limit identity of a local stdio caller: every stdio process on the machine shares it. */
const STDIO_CLIENT_ADDRESS = 'stdio:local';

const log = jsonLogger((line) => process.stderr.write(line));
const settings = readRunSettings(process.env);
const built = await buildCore(settings, { clock: systemClock, random: cryptoRandomness, log });
const sessionKey = `stdio:${cryptoRandomness.uuid()}`;
const connection = serveStdio(
  ({ era }) =>
    createMcpServer(built.core, {
      sessionKey: era === 'legacy' ? sessionKey : undefined,
      clientAddress: STDIO_CLIENT_ADDRESS,
      transport: 'stdio',
      era,
      log,
    }),
  { onerror: (error) => log.warn({ msg: 'mcp stdio error', err: errorText(error) }) },
);
log.info({ msg: 'mcp stdio server ready', siteUrl: settings.siteUrl });

let stopping = false;
/** The host closed stdin or asked us to stop: close the connection, then the core and its database. */
async function shutdown(reason: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ msg: 'mcp stdio server stopping', reason });
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  await connection.close().catch(() => undefined);
  await built.close();
  log.info({ msg: 'mcp stdio server stopped' });
  process.exit(0);
}
process.stdin.on('end', () => void shutdown('stdin closed'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
