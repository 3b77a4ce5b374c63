/**
 * The baseline of the REST benchmark: a bare hono app on @hono/node-server that answers
 * `GET /capabilities` and `POST /jobs` with the bodies the real service gave (no middleware, no
 * database, no validation beyond parsing the JSON it is sent). Run as its own process by
 * bench/rest.ts: `node bench/bare-hono.ts <bodies.json>`; it prints `{"port":N}` once
 * it listens on loopback.
 */
import { readFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { API_BASE_PATH } from '../core/urls.ts';

export interface BareBodies {
  capabilities: unknown;
  created: unknown;
}

const bodies = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as BareBodies;

const app = new Hono();
app.get(`${API_BASE_PATH}/capabilities`, (c) =>
  c.json(bodies.capabilities as object, 200, { 'cache-control': 'no-store' }),
);
app.post(`${API_BASE_PATH}/jobs`, async (c) => {
  await c.req.json();
  return c.json(bodies.created as object, 201, { 'cache-control': 'no-store' });
});

serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`${JSON.stringify({ port: info.port })}\n`);
});
