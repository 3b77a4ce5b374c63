import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { braceletArgs, connectStdio } from '../helpers/mcp.ts';
import { removeDir } from '../helpers/service.ts';

/**
 * The real stdio server process (`node bin/jewellery-mcp.js`) stopped as hosts stop it: by closing
 * its stdin (the MCP specification's way), or with SIGTERM. Either way it closes the connection,
 * then the core and the database (it logs `mcp stdio server stopped` once both are closed, and
 * exits 0 right after), and the process is gone.
 */

let dir: string | undefined;
let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  if (dir) removeDir(dir);
  dir = stop = undefined;
});

/** A 2025-11-25 client on a fresh process and database file that has written to it (a job). */
async function connected() {
  dir = mkdtempSync(join(tmpdir(), 'mcp-stdio-stop-'));
  const dbFile = join(dir, 'stdio.db');
  let stderr = '';
  const stdio = await connectStdio(
    'legacy',
    { DATABASE_URL: `file:${dbFile}`, SITE_URL: 'http://localhost:8787' },
    (chunk) => (stderr += chunk),
  );
  stop = () => stdio.client.close();
  const opened = await stdio.call('open_job', braceletArgs);
  expect(opened.isError).toBeFalsy();
  const pid = stdio.transport.pid!;
  const gone = new Promise<void>((resolve) => (stdio.client.onclose = resolve));
  return {
    stdio,
    pid,
    gone,
    logged: () =>
      stderr
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { msg: string; reason?: string }),
  };
}

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the stdio server process', () => {
  it('closes the connection and the database and exits when the host closes its stdin', async () => {
    const server = await connected();
    // Ends stdin, then waits for the process (the client sends SIGTERM only if it is still there after 2 s).
    await server.stdio.client.close();
    await server.gone;

    const stopping = server.logged().filter((line) => line.msg.startsWith('mcp stdio server stop'));
    expect(stopping).toEqual([
      expect.objectContaining({ msg: 'mcp stdio server stopping', reason: 'stdin closed' }),
      expect.objectContaining({ msg: 'mcp stdio server stopped' }),
    ]);
    expect(isRunning(server.pid)).toBe(false);
  }, 60_000);

  it('closes the connection and the database and exits on SIGTERM', async () => {
    const server = await connected();
    process.kill(server.pid, 'SIGTERM');
    await server.gone;

    const stopping = server.logged().filter((line) => line.msg.startsWith('mcp stdio server stop'));
    expect(stopping).toEqual([
      expect.objectContaining({ msg: 'mcp stdio server stopping', reason: 'SIGTERM' }),
      expect.objectContaining({ msg: 'mcp stdio server stopped' }),
    ]);
    expect(isRunning(server.pid)).toBe(false);
  }, 60_000);
});
