import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { systemClock } from '../core/clock.ts';
import { jsonLogger } from '../core/logger.ts';
import { cryptoRandomness } from '../core/randomness.ts';
import { readRunSettings } from '../http/env.ts';
import { buildService } from '../http/service.ts';
import { createMcpServer } from './server.ts';

/**
 * The stdio MCP server (`npm run mcp`): the same configuration, database and core as the HTTP
 * service, one MCP session per process. stdout carries only protocol messages; logs go to stderr.
 */

/** The rate-limit identity of a local stdio caller: every stdio process on the machine shares it. */
export const STDIO_CLIENT_ADDRESS = 'stdio:local';

const log = jsonLogger((line) => process.stderr.write(line));
const settings = readRunSettings(process.env);
const service = await buildService(settings, { clock: systemClock, random: cryptoRandomness, log });
const sessionKey = `stdio:${cryptoRandomness.uuid()}`;
const server = createMcpServer(service.core, {
  sessionKey,
  clientAddress: STDIO_CLIENT_ADDRESS,
  transport: 'stdio',
  log,
});
await server.connect(new StdioServerTransport());
log.info({ msg: 'mcp stdio server ready', siteUrl: settings.siteUrl });

let stopping = false;
/** The host closed stdin or asked us to stop: drop this session's handles, close the database. */
async function shutdown(reason: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ msg: 'mcp stdio server stopping', reason });
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  await server.close().catch(() => undefined);
  await service.core.forgetAgentSession(sessionKey).catch(() => undefined);
  await service.close();
  process.exit(0);
}
process.stdin.on('end', () => void shutdown('stdin closed'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
