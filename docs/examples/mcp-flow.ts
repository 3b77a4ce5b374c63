/**
 * The MCP flow as a host would drive it, over stdio with the SDK's client: get_capabilities,
 * open_job, submit_design (by base64), check_approval, and a read of the cutting file the answer
 * links. Prints each tool's text block, which is what a model reads. The stdio server opens the
 * database named by DATABASE_URL; SITE_URL is where the approval pages are served. The client
 * speaks protocol 2026-07-28 (no session; the job is named by its handle); MCP_PROTOCOL=2025-11-25
 * makes it a client of the older revision (the initialize handshake, a session).
 *
 *   DATABASE_URL=file:data/jewellery.db SITE_URL=http://localhost:8787 npx node docs/examples/mcp-flow.ts
 */
import { Client, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { drawDesign, type StripPx } from './make-design.ts';

const revision = process.env.MCP_PROTOCOL ?? '2026-07-28';
const client = new Client(
  { name: 'docs-example', version: '1.0.0' },
  revision === '2025-11-25' ? {} : { versionNegotiation: { mode: { pin: revision } } },
);
await client.connect(
  new StdioClientTransport({
    command: 'node',
    args: ['bin/jewellery-mcp.js'],
    env: { ...(process.env as Record<string, string>) },
    stderr: 'ignore',
  }),
);
console.log(`--- connected, protocol ${client.getNegotiatedProtocolVersion()}`);

async function tool(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  const result = await client.callTool({ name, arguments: args });
  const text = result.content.find((block) => block.type === 'text');
  const images = result.content.filter((block) => block.type === 'image').length;
  const links = result.content.flatMap((block) => (block.type === 'resource_link' ? [block.uri] : []));
  console.log(`--- ${name}${result.isError ? ' (isError)' : ''}${images ? `, ${images} image block(s)` : ''}`);
  console.log(text?.type === 'text' ? text.text : '(no text)');
  for (const uri of links) console.log(`(resource link: ${uri})`);
  if (result.isError) process.exit(1);
  return result;
}

await tool('get_capabilities');
const opened = await tool('open_job', { productType: 'bracelet', wristMm: 160, widthMm: 20 });
const { job, jobHandle } = opened.structuredContent as { job: { drawing: { stripPx: StripPx } }; jobHandle: string };
const png = await drawDesign(job.drawing.stripPx);
const submitted = await tool('submit_design', { jobHandle, pngBase64: png.toString('base64') });
await tool('check_approval', { jobHandle });
const cutting = submitted.content.find((block) => block.type === 'resource_link');
if (cutting?.type === 'resource_link') {
  const { contents } = await client.readResource({ uri: cutting.uri });
  const svg = contents[0] && 'text' in contents[0] ? contents[0].text : '';
  console.log(
    `--- resources/read ${cutting.uri}\n${contents[0]?.mimeType}, ${svg.length} characters: ${svg.slice(0, 60)}…`,
  );
}
await client.close();
