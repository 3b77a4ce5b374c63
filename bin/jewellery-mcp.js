#!/usr/bin/env node
// The stdio MCP server from a checkout (`npx jewellery-mcp`, or a host's "command"). Relative paths
// (the default database file data/jewellery.db, DATABASE_URL, CONFIG_FILE) resolve against the
// checkout, as they do for `npm start` there. The source is TypeScript, which Node 24 runs itself; a
// host that starts this file with an older Node (without type stripping) gets the checkout's own
// pinned Node 24 (node_modules/.bin/node, docs/operations.md) in its place, on the same stdio.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

const checkout = fileURLToPath(new URL('..', import.meta.url));
process.chdir(checkout);

if (process.features.typescript) {
  await import('../mcp/stdio.ts');
} else {
  const pinned = fileURLToPath(new URL('../node_modules/.bin/node', import.meta.url));
  if (!existsSync(pinned)) {
    process.stderr.write(`jewellery-mcp needs Node 24 (this is ${process.version}); run npm ci in ${checkout}\n`);
    process.exit(1);
  }
  const child = spawn(pinned, ['--max-semi-space-size=16', 'mcp/stdio.ts'], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
}
