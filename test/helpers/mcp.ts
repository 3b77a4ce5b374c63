import { Client, InMemoryTransport, type CallToolResult, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { fileURLToPath } from 'node:url';
import { createMcpServer, type McpContext } from '../../mcp/server.ts';
import { afterEach } from 'vitest';
import { DEFAULT_ADDRESS, removeDir, type TestService } from './service.ts';

/** The protocol revisions the server serves, and the era each one is. */
export const REVISIONS = { legacy: '2025-11-25', modern: '2026-07-28' } as const;
export type Era = keyof typeof REVISIONS;

export interface McpTestClient {
  client: Client;
  era: Era;
  /** The session key of a 2025-11-25 connection; undefined for 2026-07-28 (no sessions). */
  sessionKey: string | undefined;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Every message the client received, as it came over the wire (cache fields included). */
  received: JSONRPCMessage[];
  close(): Promise<void>;
}

export interface ConnectOptions extends Partial<Omit<McpContext, 'era' | 'sessionKey'>> {
  era?: Era;
  /** The session key a 2025-11-25 connection is served under (a fresh one by default). */
  sessionKey?: string;
}

let sessions = 0;

/**
 * A real SDK client on an in-memory pair, talking to a server built on the service's core and
 * served the way the stdio server serves it (either revision, pinned to the one the client opens
 * with). The client speaks 2025-11-25 unless `era: 'modern'` pins it to 2026-07-28.
 */
export async function connectMcp(service: TestService, options: ConnectOptions = {}): Promise<McpTestClient> {
  sessions += 1;
  const { era = 'legacy', sessionKey = `test:${process.pid}:${sessions}`, ...rest } = options;
  const context = { clientAddress: DEFAULT_ADDRESS, transport: 'http' as const, ...rest };
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const served = serveStdio(
    ({ era: opened }) =>
      createMcpServer(service.core, {
        ...context,
        era: opened,
        sessionKey: opened === 'legacy' ? sessionKey : undefined,
      }),
    { transport: serverSide },
  );
  const client = new Client(
    { name: 'vitest', version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: REVISIONS.modern } } } : {},
  );
  await client.connect(clientSide);
  const received: JSONRPCMessage[] = [];
  const deliver = clientSide.onmessage;
  clientSide.onmessage = (message, extra) => {
    received.push(message);
    deliver?.(message, extra);
  };
  return {
    received,
    client,
    era,
    sessionKey: era === 'legacy' ? sessionKey : undefined,
    call: (name, args = {}) => client.callTool({ name, arguments: args }),
    async close() {
      await client.close();
      await served.close();
    },
  };
}

/** A client of either revision on the real stdio server process, started as a host starts it. */
export async function connectStdio(
  era: Era,
  env: Record<string, string>,
  onStderr?: (chunk: string) => void,
): Promise<{
  client: Client;
  transport: StdioClientTransport;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
}> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [fileURLToPath(new URL('../../bin/jewellery-mcp.js', import.meta.url))],
    env: { ...inherited, ...env },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => onStderr?.(chunk.toString()));
  const client = new Client(
    { name: `vitest-stdio-${era}`, version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: REVISIONS.modern } } } : {},
  );
  await client.connect(transport);
  return {
    client,
    transport,
    call: (name, args = {}) => client.callTool({ name, arguments: args }, { timeout: 60_000 }),
  };
}

/** The text blocks of a result, joined. */
export const textOf = (result: CallToolResult): string =>
  result.content
    .filter((c): c is Extract<typeof c, { type: 'text' }> => c.type === 'text')
    .map((c) => c.text)
    .join('\n');

/** The contract envelope a refusal carries in its JSON text block. */
export function errorEnvelope(result: CallToolResult): { code: string; message: string; agent_instruction?: string } {
  for (const block of result.content) {
    if (block.type !== 'text') continue;
    try {
      const parsed = JSON.parse(block.text) as { error?: { code: string; message: string } };
      if (parsed.error) return parsed.error;
    } catch {
      // the human-readable block
    }
  }
  throw new Error(`no error envelope in ${JSON.stringify(result)}`);
}

/** open_job's arguments for a bracelet: the size in flat fields. */
export const braceletArgs = { productType: 'bracelet', wristMm: 160, widthMm: 20 };

/** Every `anyOf` / `oneOf` / `allOf` anywhere in a JSON Schema, by its path. */
export function unionsIn(schema: unknown, path = '$'): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  return Object.entries(schema).flatMap(([key, value]) => [
    ...(['anyOf', 'oneOf', 'allOf'].includes(key) ? [`${path}.${key}`] : []),
    ...unionsIn(value, `${path}.${key}`),
  ]);
}

/** The resource links of a result. */
export const resourceLinks = (result: CallToolResult) =>
  result.content.filter((c): c is Extract<typeof c, { type: 'resource_link' }> => c.type === 'resource_link');

/**
 * What a test opens beside the file's service, closed after each test: the MCP clients first, then
 * the extra services (`services.push(started)`).
 */
export function openedPerTest(): { clients: McpTestClient[]; services: TestService[] } {
  const opened = { clients: [] as McpTestClient[], services: [] as TestService[] };
  afterEach(async () => {
    await Promise.all(opened.clients.splice(0).map((c) => c.close()));
    for (const s of opened.services.splice(0)) {
      await s.close();
      removeDir(s.dir);
    }
  });
  return opened;
}
