import { request as httpRequest } from 'node:http';
import type { ServerType } from '@hono/node-server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { listen } from '../../http/server-options.ts';
import { REVISIONS, type Era } from './mcp.ts';
import { checkMcpText, wireCheckedFetch } from './mcp-wire.ts';
import type { TestService } from './service.ts';

/** A service listening on a loopback port, as production listens (`listen()` from http/server-options.ts). */
export interface Listening {
  base: string;
  close(): Promise<void>;
}

export async function listenOn(service: TestService): Promise<Listening> {
  let server: ServerType | undefined;
  const port = await new Promise<number>((resolve) => {
    server = listen({ fetch: service.app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve(info.port));
  });
  return {
    base: `http://127.0.0.1:${port}`,
    async close() {
      // The streams of MCP sessions still open would hold the listener open.
      await service.closeMcp();
      await new Promise((resolve) => server!.close(resolve));
    },
  };
}

/**
 * A real SDK client over streamable HTTP to `/mcp`, speaking the revision of `era` (2026-07-28
 * pinned: no fallback), every answer held to the wire check (mcp-wire.ts).
 */
export async function connectHttp(
  base: string,
  era: Era,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { fetch: wireCheckedFetch });
  const client = new Client(
    { name: `vitest-http-${era}`, version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: REVISIONS.modern } } } : {},
  );
  await client.connect(transport);
  return { client, transport };
}

/** The `_meta` envelope every 2026-07-28 request carries. */
export const modernMeta = {
  'io.modelcontextprotocol/protocolVersion': REVISIONS.modern,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A 2026-07-28 request: the body with its envelope, and the headers the revision requires. */
export function modernRequest(
  method: string,
  params: Record<string, unknown> = {},
  id = 1,
): { body: string; headers: Record<string, string> } {
  const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
  return {
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: modernMeta } }),
    headers: {
      'mcp-protocol-version': REVISIONS.modern,
      'mcp-method': method,
      ...(name === undefined ? {} : { 'mcp-name': name }),
    },
  };
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * A raw request over node:http to `/mcp`, where Host and Origin can be set freely; a JSON or SSE
 * answer is held to the wire check. An SSE answer is read up to its first result (the stream of
 * an `initialize` stays open).
 */
export function rawMcp(
  base: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<RawAnswer> {
  const url = new URL(`${base}/mcp`);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        method,
        hostname: url.hostname,
        port: url.port,
        path: url.pathname,
        headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let settled = false;
        const done = () => {
          if (settled) return;
          settled = true;
          const text = Buffer.concat(chunks).toString();
          checkMcpText(body, res.statusCode!, res.headers, text);
          resolve({ status: res.statusCode!, headers: res.headers, text });
        };
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          if (/"result"[\s\S]*\n\n/.test(Buffer.concat(chunks).toString())) {
            done();
            res.destroy();
          }
        });
        res.on('end', done);
        res.on('close', done);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
