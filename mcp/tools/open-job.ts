import {
  errorText,
  productTypes,
  type Config,
  ATTRIBUTION_MAX,
  attributionSchema,
  fitSchema,
  type SizeInput,
  jobSchema,
  type Job,
  coreError,
  invalidRequest,
  type Core,
  err,
  ok,
  type Result,
} from '../../core/index.ts';
import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { McpContext } from '../context.ts';
import { drawingHintLines } from '../drawing-rules.ts';
import { handleLifetime } from '../job-ref.ts';
import { FLAT_SIZE_FORMS_MESSAGE, guarded, toolError, toolResult } from '../results.ts';
import { listedSchema, parseArguments } from '../tool-input.ts';

export const name = 'open_job';

/** Flat: the three size forms are optional top-level fields, exactly one of them given (checked below). */
const inputSchema = (appConfig: Config) =>
  z.strictObject({
    productType: z.enum(productTypes).describe('bracelet (open cuff) or ring (closed band).'),
    wristMm: z
      .number()
      .optional()
      .describe('Size form 1, bracelets only: the wrist circumference in mm (optionally with fit).'),
    fit: fitSchema.optional().describe('With wristMm only: how the cuff sits, snug, comfort or loose.'),
    usRingSize: z.number().optional().describe('Size form 2, rings only: the US ring size.'),
    lengthMm: z.number().optional().describe('Size form 3, either product: the length of the flat blank in mm.'),
    widthMm: z
      .number()
      .describe(
        `Width of the strip in mm, inside the product width range (get_capabilities); bracelet default ${appConfig.products.bracelet.defaultWidthMm}, ring ${appConfig.products.ring.defaultWidthMm}.`,
      ),
    attribution: attributionSchema
      .optional()
      .describe(
        `Optional: who is calling (agentPlatform, integration, skillVersion, apiVersion), ${ATTRIBUTION_MAX} characters each.`,
      ),
  });
type Input = z.infer<ReturnType<typeof inputSchema>>;

const outputSchema = z.object({
  job: jobSchema.describe('The job, without its secret (the server keeps it).'),
  jobHandle: z
    .string()
    .describe('Names this job in submit_design and check_approval, from any session, until the job expires.'),
  drawingHints: z.array(z.string()).describe('The job drawing hints in words: where and how thick to draw.'),
  next: z.string(),
});

export const config = (appConfig: Config) => ({
  title: 'Open a design job',
  description: `Opens a new design job for one piece of jewellery and returns the job, its jobHandle and its drawing hints: the canvas size, the rectangle (stripPx) the design must fill at the job ratio, and the smallest opening and metal widths in pixels. Give productType, widthMm and the size in exactly one form: wristMm (with optional fit) for a bracelet, usRingSize for a ring, or lengthMm for either. Each call opens another job and counts against the hourly job limit, so call it once per piece and keep the returned jobHandle for submit_design and check_approval. ${handleLifetime(appConfig)} The job's secret stays on the server and is never shown.`,
  inputSchema: listedSchema(inputSchema(appConfig)),
  outputSchema,
  annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false },
});

export function registerOpenJobTool(server: McpServer, core: Core, context: McpContext): void {
  const schema = inputSchema(core.config);
  server.registerTool(name, config(core.config), (args) =>
    guarded(
      async () => {
        const parsed = parseArguments(schema, args, sizeFieldHint);
        if (!parsed.ok) return toolError(parsed.error);
        const size = sizeOf(parsed.value);
        if (!size.ok) return toolError(size.error);
        const { productType, widthMm, attribution } = parsed.value;
        const body = {
          productType,
          size: size.value,
          widthMm,
          attribution: { integration: `mcp-${context.transport}`, ...attribution },
        };
        const opened = await core.openJob({ body: { value: body }, clientAddress: context.clientAddress });
        if (!opened.ok) return toolError(opened.error);
        // Without an Idempotency-Key nothing is replayed; a replay would carry no secret to keep.
        if (opened.value.kind !== 'created') return toolError(coreError('PROCESSING_FAILED'));
        const { job, jobSecret } = opened.value;
        const { handle } = await core.rememberAgentJob(context.sessionKey, job.id, jobSecret);
        context.log?.info({ msg: 'mcp job opened', jobId: job.id, transport: context.transport, era: context.era });
        const hints = drawingHintLines(job.drawing);
        const next = `Draw the design to these hints, then call submit_design with jobHandle "${handle}" and the PNG.`;
        return toolResult(summary(job, handle, core.config, hints, next), {
          job,
          jobHandle: handle,
          drawingHints: hints,
          next,
        });
      },
      (cause) => context.log?.error({ msg: 'mcp tool failed', tool: name, err: errorText(cause) }),
    ),
  );
}

/** The one size form the flat fields give, or the refusal REST gives for a bad size, in these fields' names. */
function sizeOf(input: Input): Result<SizeInput> {
  const forms: SizeInput[] = [];
  if (input.wristMm !== undefined) {
    forms.push(input.fit === undefined ? { wristMm: input.wristMm } : { wristMm: input.wristMm, fit: input.fit });
  }
  if (input.usRingSize !== undefined) forms.push({ usRingSize: input.usRingSize });
  if (input.lengthMm !== undefined) forms.push({ lengthMm: input.lengthMm });
  if (input.fit !== undefined && input.wristMm === undefined) {
    return err(invalidRequest(`fit goes with wristMm only. ${FLAT_SIZE_FORMS_MESSAGE}`));
  }
  if (forms.length !== 1) {
    return err(
      invalidRequest(forms.length === 0 ? `No size given. ${FLAT_SIZE_FORMS_MESSAGE}` : FLAT_SIZE_FORMS_MESSAGE),
    );
  }
  return ok(forms[0]!);
}

/** The REST body's nested size, sent here, is named with the flat fields that replace it. */
const sizeFieldHint = (field: string): string | undefined =>
  field === 'size' ? `The size is given in flat fields here. ${FLAT_SIZE_FORMS_MESSAGE}` : undefined;

function summary(job: Job, handle: string, appConfig: Config, hints: string[], next: string): string {
  const d = job.dims;
  return [
    `Opened ${job.productType} job ${job.id} (status ${job.status}).`,
    `Job handle: ${handle} — pass it as jobHandle to submit_design and check_approval. ${handleLifetime(appConfig)}`,
    `Blank ${d.lengthMm} x ${d.widthMm} mm, ${d.thicknessMm} mm thick${d.gapMm ? `, cuff opening ${d.gapMm} mm` : ''}; price ${job.price.total} ${job.price.currency} (${job.price.note}).`,
    `Submissions left: ${job.limits.submissionsLeft}; the job expires ${job.expiresAt}.`,
    'Drawing hints:',
    ...hints.map((line) => `- ${line}`),
    next,
  ].join('\n');
}
