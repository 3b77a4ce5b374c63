import { McpServer, type CacheHint } from '@modelcontextprotocol/server';
import { HOUR, type Config, type Core } from '../core/index.ts';
import type { McpContext } from './context.ts';
import { handleLifetime } from './job-ref.ts';
import { registerDesignJewelleryPrompt } from './prompts/design-jewellery.ts';
import { registerDrawingRulesResource } from './resources/drawing-rules.ts';
import { registerSubmissionSvgResource } from './resources/submission-svg.ts';
import { registerTools } from './tools/index.ts';

export type { McpContext } from './context.ts';

const SERVER_NAME = 'jewellery-design-jobs';
const SERVER_VERSION = '0.1.0';

const instructions = (config: Config) =>
  `Designs laser-cut brass bracelets and rings from black-on-white PNG drawings. Call get_capabilities, then open_job, draw to the job drawing hints, submit_design, fix every finding its agent_instruction names, and when a submission is ready give the person the approval link (the page is in Hebrew) and show the preview; then check_approval at most every ${config.limits.pollIntervalSec} seconds. open_job returns a jobHandle: pass it to submit_design and check_approval. ${handleLifetime(config)}`;

/**
 * The lists and the server's description are the same for every caller of a server (they change
 * only when it restarts with a new configuration), so any cache may keep them for a while
 * (MCP 2026-07-28; 2025-11-25 answers carry no cache fields).
 */
const sharedForAnHour: CacheHint = { ttlMs: HOUR, cacheScope: 'public' };
const cacheHints = {
  'server/discover': sharedForAnHour,
  'tools/list': sharedForAnHour,
  'prompts/list': sharedForAnHour,
  'resources/list': sharedForAnHour,
  'resources/templates/list': sharedForAnHour,
};

/**
 * One MCP server for one caller: a stdio connection, a 2025-11-25 streamable HTTP session, or one
 * 2026-07-28 request; no transport inside.
 */
export function createMcpServer(core: Core, context: McpContext): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, title: 'Jewellery design jobs', version: SERVER_VERSION },
    {
      instructions: instructions(core.config),
      capabilities: {
        tools: { listChanged: false },
        prompts: { listChanged: false },
        resources: { listChanged: false },
      },
      cacheHints,
    },
  );
  registerTools(server, core, context);
  registerDrawingRulesResource(server, core);
  registerSubmissionSvgResource(server, core, context);
  registerDesignJewelleryPrompt(server, core);
  return server;
}
