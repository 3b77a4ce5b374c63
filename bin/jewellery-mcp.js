#!/usr/bin/env node
// The stdio MCP server from a checkout (`npx jewellery-mcp`, or a host's "command"): the
// TypeScript source runs through tsx. Relative paths (the default database file data/jewellery.db,
// DATABASE_URL, CONFIG_FILE) resolve against the checkout, as they do for `npm start` there.
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';
import { register } from 'tsx/esm/api';

process.chdir(fileURLToPath(new URL('..', import.meta.url)));
register();
await import('../mcp/stdio.ts');
