import { errorText, type Capabilities, type Core } from '../../core/index.ts';
import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { McpContext } from '../context.ts';
import { designFlow, drawingRules } from '../drawing-rules.ts';
import { FLAT_SIZE_FORMS_MESSAGE, guarded, toolResult } from '../results.ts';

export const name = 'get_capabilities';

const outputSchema = z.object({
  capabilities: z
    .record(z.string(), z.unknown())
    .describe('The live capabilities document of the service (same as GET /capabilities of the REST API).'),
  drawingRules: z.array(z.string()).describe('The rules every drawing must follow, summarised.'),
  flow: z.array(z.string()).describe('The steps from opening a job to the approval.'),
});

export const config = {
  title: 'Get capabilities',
  description:
    'Returns what the jewellery service makes and how: the products (bracelet cuff, ring band) with their length and width ranges and prices in ILS, the three ways to give a size, the limits (submissions per job, the polling interval) and the drawing rules every PNG must follow. Call it once before open_job to choose a product, size and width; it changes nothing and may be called at any time.',
  inputSchema: z.object({}),
  outputSchema,
  annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
};

export function registerGetCapabilitiesTool(server: McpServer, core: Core, context: McpContext): void {
  server.registerTool(name, config, () =>
    guarded(
      async () => {
        const capabilities = core.capabilities();
        const structured: z.infer<typeof outputSchema> = {
          capabilities,
          drawingRules: drawingRules(capabilities),
          flow: designFlow(capabilities),
        };
        return toolResult(summary(capabilities, structured), structured);
      },
      (cause) => context.log?.error({ msg: 'mcp tool failed', tool: name, err: errorText(cause) }),
    ),
  );
}

function summary(capabilities: Capabilities, structured: z.infer<typeof outputSchema>): string {
  const products = Object.entries(capabilities.products).map(
    ([type, p]) =>
      `- ${type}: blank length ${p.lengthRangeMm.min}-${p.lengthRangeMm.max} mm, width ${p.widthRangeMm.min}-${p.widthRangeMm.max} mm (default ${p.defaultWidthMm}), price ${p.price.total} ${p.price.currency} including VAT and shipping.`,
  );
  return [
    `Jewellery design service (API ${capabilities.apiVersion}, contract ${capabilities.contractVersion}): ${capabilities.manufacturing.thicknessMm} mm ${capabilities.manufacturing.material}, laser cut.`,
    'Products:',
    ...products,
    `Sizes for open_job: ${FLAT_SIZE_FORMS_MESSAGE}`,
    `Limits: ${capabilities.limits.submissionsPerJob} counted submissions per job; check approval at most every ${capabilities.limits.pollIntervalSec} s.`,
    'Drawing rules:',
    ...structured.drawingRules.map((rule) => `- ${rule}`),
    'Flow:',
    ...structured.flow.map((step, i) => `${i + 1}. ${step}`),
  ].join('\n');
}
