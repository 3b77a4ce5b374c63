import type { McpServer } from '@modelcontextprotocol/server';
import type { Core } from '../../core/index.ts';
import type { McpContext } from '../context.ts';
import { registerCheckApprovalTool } from './check-approval.ts';
import { registerGetCapabilitiesTool } from './get-capabilities.ts';
import { registerOpenJobTool } from './open-job.ts';
import { registerSubmitDesignTool } from './submit-design.ts';

/** Every tool of the server, in the order an agent uses them. */
export function registerTools(server: McpServer, core: Core, context: McpContext): void {
  registerGetCapabilitiesTool(server, core, context);
  registerOpenJobTool(server, core, context);
  registerSubmitDesignTool(server, core, context);
  registerCheckApprovalTool(server, core, context);
}
