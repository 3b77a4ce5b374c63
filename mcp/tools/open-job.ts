import { errorText } from '../../core/logger.ts';
import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { productTypes } from '../../core/config.ts';
import { attributionSchema, SIZE_FORMS_MESSAGE, sizeSchema } from '../../core/contract/create-job.ts';
import { jobSchema, type Job } from '../../core/contract/job.ts';
import { coreError } from '../../core/errors.ts';
import type { Core } from '../../core/index.ts';
import type { McpContext } from '../context.ts';
import { drawingHintLines } from '../drawing-rules.ts';
import { guarded, toolError, toolResult } from '../results.ts';

export const name = 'open_job';

const inputSchema = z.object({
  productType: z.enum(productTypes).describe('bracelet (open cuff) or ring (closed band).'),
  size: sizeSchema.describe(SIZE_FORMS_MESSAGE),
  widthMm: z
    .number()
    .describe(
      'Width of the strip in mm, inside the product width range (get_capabilities); bracelet default 20, ring 6.',
    ),
  attribution: attributionSchema
    .optional()
    .describe('Optional: who is calling (agentPlatform, integration, skillVersion, apiVersion), 64 characters each.'),
});

const outputSchema = z.object({
  job: jobSchema.describe('The job, without its secret (the server keeps it for this session).'),
  drawingHints: z.array(z.string()).describe('The job drawing hints in words: where and how thick to draw.'),
  next: z.string(),
});

export const config = {
  title: 'Open a design job',
  description:
    'Opens a new design job for one piece of jewellery and returns the job with its drawing hints: the canvas size, the rectangle (stripPx) the design must fill at the job ratio, and the smallest opening and metal widths in pixels. Give productType, size in exactly one form ({wristMm, fit?} for a bracelet, {usRingSize} for a ring, or {lengthMm} for either) and widthMm. Each call opens another job and counts against the hourly job limit, so call it once per piece and keep the returned job.id for submit_design and check_approval; the job accepts submissions for 7 days. Its secret is kept by the server for this session and never shown.',
  inputSchema,
  outputSchema,
  annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false },
};

export function registerOpenJobTool(server: McpServer, core: Core, context: McpContext): void {
  server.registerTool(name, config, (args) =>
    guarded(
      async () => {
        const body = { ...args, attribution: { integration: `mcp-${context.transport}`, ...args.attribution } };
        const opened = await core.openJob({ body: { value: body }, clientAddress: context.clientAddress });
        if (!opened.ok) return toolError(opened.error);
        // Without an Idempotency-Key nothing is replayed; a replay would carry no secret to keep.
        if (opened.value.kind !== 'created') return toolError(coreError('PROCESSING_FAILED'));
        const { job, jobSecret } = opened.value;
        await core.rememberAgentJob(context.sessionKey, job.id, jobSecret);
        context.log?.info({ msg: 'mcp job opened', jobId: job.id, transport: context.transport });
        const hints = drawingHintLines(job.drawing);
        const next = `Draw the design to these hints, then call submit_design with jobId "${job.id}" and the PNG.`;
        return toolResult(summary(job, hints, next), { job, drawingHints: hints, next });
      },
      (cause) => context.log?.error({ msg: 'mcp tool failed', tool: name, err: errorText(cause) }),
    ),
  );
}

function summary(job: Job, hints: string[], next: string): string {
  const d = job.dims;
  return [
    `Opened ${job.productType} job ${job.id} (status ${job.status}).`,
    `Blank ${d.lengthMm} x ${d.widthMm} mm, ${d.thicknessMm} mm thick${d.gapMm ? `, cuff opening ${d.gapMm} mm` : ''}; price ${job.price.total} ${job.price.currency} (${job.price.note}).`,
    `Submissions left: ${job.limits.submissionsLeft}; the job expires ${job.expiresAt}.`,
    'Drawing hints:',
    ...hints.map((line) => `- ${line}`),
    next,
  ].join('\n');
}
