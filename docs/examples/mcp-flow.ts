/**
 * The MCP flow as a host would drive it, over stdio with the SDK's client: get_capabilities,
 * open_job, submit_design (by base64), check_approval. Prints each tool's text block, which is
 * what a model reads. The stdio server opens the database named by DATABASE_URL; SITE_URL is
 * where the approval pages are served.
 *
 *   DATABASE_URL=file:data/jewellery.db SITE_URL=http://localhost:8787 npx node docs/examples/mcp-flow.ts
 */
import { Client, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { drawDesign, type StripPx } from './make-design.ts';

const client = new Client({ name: 'docs-example', version: '1.0.0' });
await client.connect(
  new StdioClientTransport({
    command: 'node',
    args: ['bin/jewellery-mcp.js'],
    env: { ...(process.env as Record<string, string>) },
    stderr: 'ignore',
  }),
);

async function tool(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  const result = await client.callTool({ name, arguments: args });
  const text = result.content.find((block) => block.type === 'text');
  const images = result.content.filter((block) => block.type === 'image').length;
  console.log(`--- ${name}${result.isError ? ' (isError)' : ''}${images ? `, ${images} image block(s)` : ''}`);
  console.log(text?.type === 'text' ? text.text : '(no text)');
  if (result.isError) process.exit(1);
  return result;
}

await tool('get_capabilities');
const opened = await tool('open_job', { productType: 'bracelet', size: { wristMm: 160 }, widthMm: 20 });
const job = (opened.structuredContent as { job: { id: string; drawing: { stripPx: StripPx } } }).job;
const png = await drawDesign(job.drawing.stripPx);
await tool('submit_design', { jobId: job.id, pngBase64: png.toString('base64') });
await tool('check_approval', { jobId: job.id });
await client.close();
