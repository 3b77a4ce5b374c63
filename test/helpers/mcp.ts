import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer, type McpContext } from '../../mcp/server.ts';
import { DEFAULT_ADDRESS, type TestService } from './service.ts';

export interface McpTestClient {
  client: Client;
  sessionKey: string;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

let sessions = 0;

/** A real SDK client on an in-memory pair, talking to a server built on the service's core. */
export async function connectMcp(service: TestService, context: Partial<McpContext> = {}): Promise<McpTestClient> {
  sessions += 1;
  const full: McpContext = {
    sessionKey: `test:${process.pid}:${sessions}`,
    clientAddress: DEFAULT_ADDRESS,
    transport: 'http',
    ...context,
  };
  const server = createMcpServer(service.core, full);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'vitest', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return {
    client,
    sessionKey: full.sessionKey,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    async close() {
      await client.close();
      await server.close();
    },
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

export const braceletArgs = { productType: 'bracelet', size: { wristMm: 160 }, widthMm: 20 };
