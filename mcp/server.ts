import { McpServer } from '@modelcontextprotocol/server';
import type { Core } from '../core/index.ts';
import type { McpContext } from './context.ts';
import { registerDesignJewelleryPrompt } from './prompts/design-jewellery.ts';
import { registerDrawingRulesResource } from './resources/drawing-rules.ts';
import { registerTools } from './tools/index.ts';

export type { McpContext } from './context.ts';

export const SERVER_NAME = 'jewellery-design-jobs';
export const SERVER_VERSION = '0.1.0';

const instructions =
  'Designs laser-cut brass bracelets and rings from black-on-white PNG drawings. Call get_capabilities, then open_job, draw to the job drawing hints, submit_design, fix every finding its agent_instruction names, and when a submission is ready give the person the approval link (the page is in Hebrew) and show the preview; then check_approval at most every 30 seconds. Job ids work only in the session that opened them.';

/** One MCP server for one connection (a stdio process or a streamable HTTP session), over the shared core. */
export function createMcpServer(core: Core, context: McpContext): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, title: 'Jewellery design jobs', version: SERVER_VERSION },
    { instructions, capabilities: { tools: {}, prompts: {}, resources: {} } },
  );
  registerTools(server, core, context);
  registerDrawingRulesResource(server, core);
  registerDesignJewelleryPrompt(server, core);
  return server;
}
