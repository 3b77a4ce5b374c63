import { mkdtempSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE_PATH } from '../core/urls.ts';
import { bearer, openJob, uploadPng } from './helpers/flows.ts';
import { makePng } from './helpers/png.ts';
import { removeDir, SITE, startService, type TestService } from './helpers/service.ts';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND'];
const UNKNOWN_SITE_PATH = '/no-such-page';
/** Headers that differ per request by design; everything else must match. */
const PER_REQUEST = ['x-request-id', 'date'];

let dir: string;
let off: TestService;
let jobId: string;
let secret: string;
let token: string;
let session: string;

/** A ready job and a signed-in person, made while the API was on; then the service restarts switched off. */
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jobs-switch-off-'));
  const on = await startService({ dir });
  const job = await openJob(on);
  const upload = await uploadPng(on, job, makePng({ width: 300, height: 300 }));
  expect(upload.status).toBe(200);
  const { submission }: any = await upload.json();
  token = submission.approval.url.split('/a/')[1];
  jobId = job.id;
  secret = job.secret;
  const signUp = await on.fetch('/signup', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: SITE },
    body: new URLSearchParams({ email: 'person@example.com', password: 'correct horse battery' }).toString(),
  });
  expect(signUp.status).toBe(303);
  session = /^jds=([^;]+);/.exec(signUp.headers.get('set-cookie') ?? '')![1]!;
  await on.close();
  off = await startService({ dir, apiEnabled: false });
});

afterAll(async () => {
  await off?.close();
  removeDir(dir);
});

/** The switched-off surface: the base, endpoints with and without a real job, deep paths, the catalogue, MCP. */
const offPaths = () => [
  API_BASE_PATH,
  `${API_BASE_PATH}/`,
  `${API_BASE_PATH}/capabilities`,
  `${API_BASE_PATH}/capabilities?x=1`,
  `${API_BASE_PATH}/jobs`,
  `${API_BASE_PATH}/jobs/xyz/submissions`,
  `${API_BASE_PATH}/jobs/${jobId}`,
  `${API_BASE_PATH}/jobs/${jobId}/submissions/1/cutouts.svg`,
  `${API_BASE_PATH}/handoff/${token}/adopt`,
  `${API_BASE_PATH}/handoff/${token}/decline`,
  `${API_BASE_PATH}/no/such/deep/path/at/all`,
  '/.well-known/api-catalog',
  `/a/${token}`,
  `/a/${token}/decline`,
  '/mcp',
];

/** The ways a caller might knock: bare, as an agent with its secret and a JSON body, as a signed-in browser. */
function variants(method: string): Array<{ name: string; init: RequestInit }> {
  const body = method === 'GET' || method === 'HEAD' ? {} : { body: '{"submissionNo":1}' };
  return [
    { name: 'bare', init: { method } },
    {
      name: 'agent',
      init: { method, headers: { ...bearer(secret), 'content-type': 'application/json' }, ...body },
    },
    {
      name: 'browser',
      init: {
        method,
        headers: { accept: 'text/html', 'sec-fetch-mode': 'navigate', cookie: `jds=${session}`, origin: SITE },
        ...body,
      },
    },
  ];
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  requestId: string | null;
}

async function answerOf(response: Response): Promise<Answer> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!PER_REQUEST.includes(name)) headers[name] = value;
  });
  return {
    status: response.status,
    headers,
    body: Buffer.from(await response.arrayBuffer()),
    requestId: response.headers.get('x-request-id'),
  };
}

describe('switched off (AGENT_API_ENABLED=false)', () => {
  it('every method on every API path, the catalogue, MCP and the approval link answers exactly the site 404', async () => {
    let compared = 0;
    for (const method of METHODS) {
      for (const { name, init } of variants(method)) {
        const reference = await answerOf(await off.fetch(UNKNOWN_SITE_PATH, init));
        expect(reference.status).toBe(404);
        expect(reference.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(reference.headers.allow).toBeUndefined();
        if (method !== 'HEAD') expect(reference.body.toString('utf8')).toMatch(/^<!doctype html>/);
        for (const path of offPaths()) {
          const answer = await answerOf(await off.fetch(path, init));
          const where = `${method} ${path} (${name})`;
          expect(answer.status, where).toBe(404);
          expect(answer.headers, where).toEqual(reference.headers);
          expect(answer.body.equals(reference.body), where).toBe(true);
          expect(answer.requestId, where).toMatch(/^[0-9a-f-]{36}$/);
          expect(answer.requestId, where).not.toBe(reference.requestId);
          compared += 1;
        }
      }
    }
    expect(compared).toBe(METHODS.length * 3 * offPaths().length);
  });

  it('the same holds over a real socket: raw status line, headers and bytes match the site 404', async () => {
    const server: ServerType = serve({ fetch: off.app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const { port } = server.address() as AddressInfo;
    const raw = (method: string, path: string) =>
      new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        const body = method === 'GET' || method === 'HEAD' ? undefined : '{}';
        // Node's client frames an OPTIONS body only when told its length.
        const headers = { host: 'localhost:8787', ...(body ? { 'content-length': String(body.length) } : {}) };
        const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const headers = { ...res.headers };
            for (const name of PER_REQUEST) delete headers[name];
            resolve({ status: res.statusCode!, headers, body: Buffer.concat(chunks) });
          });
        });
        req.on('error', reject);
        req.end(body);
      });
    try {
      for (const method of ['GET', 'HEAD', 'POST', 'OPTIONS', 'PROPFIND']) {
        const reference = await raw(method, UNKNOWN_SITE_PATH);
        for (const path of [`${API_BASE_PATH}/capabilities`, '/.well-known/api-catalog', `/a/${token}`, '/mcp']) {
          const answer = await raw(method, path);
          expect(answer.status, `${method} ${path}`).toBe(404);
          expect(answer.headers, `${method} ${path}`).toEqual(reference.headers);
          expect(answer.body.equals(reference.body), `${method} ${path}`).toBe(true);
        }
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('switching off changes nothing stored: the job answers again once the API is back on', async () => {
    await off.close();
    const on = await startService({ dir });
    try {
      const job = await on.api(`/jobs/${jobId}`, { headers: bearer(secret) });
      expect(job.status).toBe(200);
      expect((await on.fetch(`/a/${token}`)).status).toBe(200);
    } finally {
      await on.close();
      off = await startService({ dir, apiEnabled: false });
    }
  });

  it('/healthz still answers while the API is off (it is for operators)', async () => {
    const response = await off.fetch('/healthz');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });
});
