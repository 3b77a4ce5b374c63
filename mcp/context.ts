import type { Logger } from '../core/index.ts';

/** What one MCP server instance knows about the caller it serves. */
export interface McpContext {
  /**
   * `http:<session id>` for a 2025-11-25 streamable HTTP session, `stdio:<uuid>` for a stdio
   * process; undefined for a 2026-07-28 request (no sessions).
   */
  sessionKey: string | undefined;
  /** Rate limits and idempotency scope: the client address (HTTP), or a fixed local identity (stdio). */
  clientAddress: string;
  transport: 'stdio' | 'http';
  era: 'legacy' | 'modern';
  /** Facts only (never secrets or image bytes); silent when absent. */
  log?: Logger;
}
