import type { Logger } from '../core/logger.ts';

/** What one MCP server instance knows about the connection it serves. */
export interface McpContext {
  /**
   * The key its job handles are stored under: `http:<MCP session id>` for streamable HTTP, a fixed
   * `stdio:<process uuid>` for a stdio process.
   */
  sessionKey: string;
  /** Rate limits and idempotency scope: the HTTP session's client address, or a fixed local identity. */
  clientAddress: string;
  transport: 'stdio' | 'http';
  /** Facts only (never secrets or image bytes); silent when absent. */
  log?: Logger;
}
