import type { McpServer } from '@modelcontextprotocol/server';
import { HOUR, type Core } from '../../core/index.ts';
import { drawingRulesMarkdown } from '../drawing-rules.ts';

export const name = 'drawing-rules';
export const uri = 'jewellery://drawing-rules';

export const config = {
  title: 'Drawing rules',
  description:
    'How to draw a PNG the service can cut: colours, canvas, minimum opening and metal widths, and the flow.',
  mimeType: 'text/markdown',
  // Built from the live capabilities, the same for every caller.
  cacheHint: { ttlMs: HOUR, cacheScope: 'public' as const },
};

/** The drawing rules as a resource, built from the live capabilities on each read. */
export function registerDrawingRulesResource(server: McpServer, core: Core): void {
  server.registerResource(name, uri, config, (url) => ({
    contents: [{ uri: url.href, mimeType: 'text/markdown', text: drawingRulesMarkdown(core.capabilities()) }],
  }));
}
