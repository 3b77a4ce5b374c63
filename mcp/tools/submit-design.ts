import { errorText } from '../../core/logger.ts';
import { readFile, stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { findingSchema, type Finding } from '../../core/contract/finding.ts';
import { approvalSchema, priceSchema } from '../../core/contract/job.ts';
import {
  engineSchema,
  geometrySchema,
  marginsSchema,
  submissionStatuses,
  type Margin,
  type Submission,
} from '../../core/contract/submission.ts';
import { coreError, invalidRequest, type CoreError } from '../../core/errors.ts';
import type { Core } from '../../core/index.ts';
import { err, ok, type Result } from '../../core/result.ts';
import { markedPlaces, numberedFindings, pictureHelps } from '../../core/submissions/findings-picture/numbering.ts';
import type { McpContext } from '../context.ts';
import { previewPng } from '../preview-png.ts';
import { guarded, toolError, toolResult } from '../results.ts';

export const name = 'submit_design';

const HEBREW_NOTE =
  'The approval page is in Hebrew (right to left). Tell the person so: it shows the preview, the dimensions and the price, with buttons to approve or decline.';

const baseInput = {
  jobId: z.string().describe('The job.id that open_job returned in this session.'),
  pngBase64: z
    .string()
    .optional()
    .describe('The drawing: PNG file bytes, base64-encoded (a data:image/png;base64, prefix is accepted).'),
};
const stdioInput = {
  ...baseInput,
  path: z
    .string()
    .optional()
    .describe('Instead of pngBase64: the absolute path of a PNG file on this machine (local stdio server only).'),
};

const outputSchema = z.object({
  jobId: z.string(),
  submissionNo: z.number().int(),
  status: z
    .enum(submissionStatuses)
    .describe('ready: can be approved; failed_validation: fix the errors and resubmit.'),
  valid: z.boolean(),
  errors: z
    .array(findingSchema)
    .describe(
      'Each must be fixed; agent_instruction says how, locations say where (mm on the strip, px in your image).',
    ),
  warnings: z
    .array(findingSchema)
    .describe('What the service changed or could not check; no action needed unless said.'),
  margins: marginsSchema
    .optional()
    .describe(
      'How close the design came to the floors: its narrowest metal and narrowest opening as the final check measured them (null: none narrower than searchedUpToMm). Widen what is close to its floor before a rule bites.',
    ),
  geometry: geometrySchema.nullable(),
  price: priceSchema,
  approval: approvalSchema
    .nullable()
    .describe('The link for the person to approve or decline; present once a submission is ready.'),
  approvalNote: z.string().nullable(),
  submissionsLeft: z.number().int().nonnegative().nullable(),
  engine: engineSchema
    .nullable()
    .describe('What produced this outcome: the SHA-256 of the PNG, the engine version and the parameters in force.'),
  next: z.string(),
});
type Output = z.infer<typeof outputSchema>;

const description = (stdio: boolean) =>
  'Uploads a drawing for a job and returns its outcome. The drawing is a black-on-white PNG made to the job drawing hints' +
  (stdio
    ? ', given as base64 in pngBase64 or as an absolute local file path in path'
    : ', given as base64 in pngBase64') +
  ". If status is failed_validation, every error carries an agent_instruction and locations (millimetres on the strip, and px: the same place in your image's pixels); the answer lists every problem of the drawing at once, so fix all of them accordingly and submit again (each new image uses one of the job's 10 counted submissions; resending identical bytes returns the stored outcome for free). If status is ready, the result carries the approval link to give the person (the page is in Hebrew) and a PNG preview of the piece to show them; then use check_approval to learn their decision. When there are errors, or changes the engine made, at places in the drawing, a findings picture (PNG) is attached too: your drawing with each place circled and numbered as the text beside it lists them (errors, then warnings), and for a ready design each change shown as drawn beside as cut.";

/** Input and description differ by transport: only a local stdio server reads a file path. */
export function config(transport: McpContext['transport']) {
  const stdio = transport === 'stdio';
  return {
    title: 'Submit a design',
    description: description(stdio),
    inputSchema: z.object(stdio ? stdioInput : baseInput),
    outputSchema,
    annotations: { readOnlyHint: false, idempotentHint: true, destructiveHint: false, openWorldHint: false },
  };
}

export function registerSubmitDesignTool(server: McpServer, core: Core, context: McpContext): void {
  const toolConfig = config(context.transport);
  server.registerTool(name, toolConfig, (args: { jobId: string; pngBase64?: string; path?: string }) =>
    guarded(
      () => submit(core, context, args),
      (cause) => context.log?.error({ msg: 'mcp tool failed', tool: name, err: errorText(cause) }),
    ),
  );
}

async function submit(
  core: Core,
  context: McpContext,
  args: { jobId: string; pngBase64?: string; path?: string },
): Promise<CallToolResult> {
  const scope = { sessionKey: context.sessionKey };
  const resolved = await core.resolveAgentJob(scope, { jobId: args.jobId });
  if (!resolved.ok) return toolError(resolved.error);
  const png = await readPng(args, context, core.config.image.maxBytes);
  if (!png.ok) return toolError(png.error);

  const answer = await core.submit(resolved.value.job, png.value, context.clientAddress);
  if (!answer.ok) return toolError(answer.error);
  const { submission } = answer.value;
  const fresh = await core.resolveAgentJob(scope, { jobId: args.jobId });
  const submissionsLeft = fresh.ok ? (await core.readJob(fresh.value.job)).limits.submissionsLeft : null;

  const jobId = resolved.value.job.id;
  const structured = outputFor(jobId, submission, submissionsLeft);
  const image = submission.status === 'ready' ? await previewImage(core, context, fresh, submission.no) : undefined;
  const findings = await findingsImage(core, context, resolved.value.job, submission);
  const text = summary(structured, image !== undefined);
  const extra: CallToolResult['content'] = image ? [{ type: 'image', data: image, mimeType: 'image/png' }] : [];
  if (findings) {
    extra.push({ type: 'text', text: pictureLegend(submission) });
    extra.push({ type: 'image', data: findings, mimeType: 'image/png' });
  }
  return toolResult(text, structured, extra);
}

/**
 * The findings picture (the same one `GET .../findings.png` serves), when it shows what words
 * alone do not: the places of errors or of the engine's repairs. None for a clean design, or for
 * findings with no place to mark (the text says everything then).
 */
async function findingsImage(
  core: Core,
  context: McpContext,
  job: Parameters<Core['readFindingsPicture']>[0],
  s: Submission,
): Promise<string | undefined> {
  if (!pictureHelps(s.validation, 'errors-or-repairs')) return undefined;
  try {
    const picture = await core.readFindingsPicture(job, String(s.no));
    return picture.ok ? picture.value.toString('base64') : undefined;
  } catch (cause) {
    context.log?.warn({ msg: 'mcp findings picture failed', jobId: job.id, no: s.no, err: errorText(cause) });
    return undefined;
  }
}

/** Most places listed per finding in the picture's text; the picture circles them all. */
const LISTED_PLACES = 8;

/** The words beside the findings picture: what each number means and where its places are in the agent's image. */
function pictureLegend(s: Submission): string {
  const lines = [
    'Findings picture (next): your drawing with every place circled and numbered, errors as solid vermillion rings, warnings as dashed blue ones; the numbers below match. ' +
      (s.status === 'ready'
        ? 'Under the legend, each change the engine made is shown as DRAWN (your drawing there) beside CUT (what will be cut there).'
        : 'Fix the drawing at each error place.'),
  ];
  for (const { no, finding } of numberedFindings(s.validation)) {
    const places = markedPlaces(finding);
    const where = places.length
      ? `places (pixels in your image): ${places
          .slice(0, LISTED_PLACES)
          .map((at) => `(${at.px!.x}, ${at.px!.y}) r ${at.px!.r}`)
          .join('; ')}${places.length > LISTED_PLACES ? `; and ${places.length - LISTED_PLACES} more` : ''}`
      : 'the whole drawing';
    lines.push(`${no}. ${finding.code} (${finding.severity}) — ${finding.message} — ${where}`);
  }
  return lines.join('\n');
}

async function previewImage(
  core: Core,
  context: McpContext,
  job: Awaited<ReturnType<Core['resolveAgentJob']>>,
  no: number,
): Promise<string | undefined> {
  if (!job.ok) return undefined;
  const svg = await core.readSubmissionFile(job.value.job, String(no), 'preview');
  if (!svg.ok) return undefined;
  try {
    return (await previewPng(svg.value)).toString('base64');
  } catch (cause) {
    context.log?.warn({ msg: 'mcp preview render failed', jobId: job.value.job.id, no, err: errorText(cause) });
    return undefined;
  }
}

function outputFor(jobId: string, s: Submission, submissionsLeft: number | null): Output {
  const ready = s.status === 'ready';
  return {
    jobId,
    submissionNo: s.no,
    status: s.status,
    valid: s.validation.valid,
    errors: s.validation.errors,
    warnings: s.validation.warnings,
    ...(s.validation.margins && { margins: s.validation.margins }),
    geometry: s.geometry,
    price: s.price,
    approval: s.approval,
    approvalNote: ready && s.approval ? HEBREW_NOTE : null,
    submissionsLeft,
    engine: s.engine,
    next: ready
      ? 'Give the person the approval link and show them the preview. Then call check_approval no more often than the poll interval (30 s) to learn their decision.'
      : s.status === 'failed_validation'
        ? 'Fix every error as its agent_instruction says, then call submit_design again with the corrected PNG.'
        : 'Follow the errors agent_instruction before trying again.',
  };
}

function summary(o: Output, withImage: boolean): string {
  const lines: string[] = [];
  if (o.status === 'ready') {
    lines.push(`Submission ${o.submissionNo} of job ${o.jobId} is READY for approval.`);
    if (o.geometry) {
      const g = o.geometry;
      lines.push(
        `Piece: ${g.lengthMm} x ${g.widthMm} mm, ${g.cuts} cut-outs, ${g.openAreaPct}% open, about ${g.estWeightGrams} g; price ${o.price.total} ${o.price.currency} (${o.price.note}).`,
      );
    }
    if (o.approval) lines.push(`Approval link for the person: ${o.approval.url} (expires ${o.approval.expiresAt}).`);
    if (o.approvalNote) lines.push(o.approvalNote);
    lines.push(withImage ? 'A PNG preview of the piece is attached.' : 'No preview image could be attached.');
  } else {
    lines.push(
      `Submission ${o.submissionNo} of job ${o.jobId} ${o.status === 'failed_validation' ? 'FAILED validation' : `ended ${o.status}`} with ${o.errors.length} error(s).`,
    );
  }
  if (o.errors.length) lines.push('Errors to fix:', ...o.errors.map((f, i) => findingLine(f, i)));
  // Numbered on from the errors, as the findings picture numbers them.
  if (o.warnings.length) lines.push('Warnings:', ...o.warnings.map((f, i) => findingLine(f, o.errors.length + i)));
  if (o.margins) {
    const m = o.margins;
    lines.push(
      `Margins: narrowest metal ${marginText(m.narrowestMetal, m.searchedUpToMm.metal)}; narrowest opening ${marginText(m.narrowestOpening, m.searchedUpToMm.opening)}.`,
    );
  }
  if (o.submissionsLeft !== null) lines.push(`Submissions left in this job: ${o.submissionsLeft}.`);
  lines.push(o.next);
  return lines.join('\n');
}

function marginText(m: Margin | null, searchedMm: number): string {
  return m ? `${m.widthMm} mm (floor ${m.floorMm} mm) at x=${m.at.x} y=${m.at.y} mm` : `none under ${searchedMm} mm`;
}

function findingLine(f: Finding, i: number): string {
  const at = f.locations?.length
    ? ` At (mm on the strip): ${f.locations
        .slice(0, 8)
        .map((l) => `x=${l.x} y=${l.y} r=${l.r}${l.px ? ` (pixel ${l.px.x}, ${l.px.y} of your image)` : ''}`)
        .join('; ')}${f.locations.length > 8 ? `; and ${f.locations.length - 8} more` : ''}.`
    : '';
  return `${i + 1}. ${f.code}: ${f.message} What to do: ${f.agent_instruction}${at}`;
}

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** The image bytes from base64 or (stdio only) an absolute path; refusals in the contract's codes. */
async function readPng(
  args: { pngBase64?: string; path?: string },
  context: McpContext,
  maxBytes: number,
): Promise<Result<Uint8Array, CoreError>> {
  const hasBase64 = args.pngBase64 !== undefined && args.pngBase64 !== '';
  const hasPath = context.transport === 'stdio' && args.path !== undefined && args.path !== '';
  if (hasBase64 === hasPath) {
    return err(
      invalidRequest(
        context.transport === 'stdio'
          ? 'Give the PNG either as pngBase64 or as an absolute path, exactly one of them.'
          : 'Give the PNG as pngBase64 (the file bytes, base64-encoded).',
      ),
    );
  }
  if (hasPath) return readPngFile(args.path!, maxBytes);
  const text = args.pngBase64!.replace(/^data:[^,]*;base64,/i, '').replace(/\s+/g, '');
  if (!BASE64.test(text) || text.length % 4 === 1) {
    return err(
      coreError('INVALID_REQUEST', {
        message: 'pngBase64 is not valid base64.',
        agent_instruction: 'Encode the PNG file bytes with standard base64 and send the whole string in pngBase64.',
      }),
    );
  }
  // Refuse before decoding what could only be too large.
  if (Math.floor((text.length * 3) / 4) > maxBytes + 3) return err(coreError('FILE_TOO_LARGE'));
  const bytes = Buffer.from(text, text.includes('-') || text.includes('_') ? 'base64url' : 'base64');
  if (bytes.length === 0) return err(invalidRequest('pngBase64 is empty; send the PNG file bytes.'));
  if (bytes.length > maxBytes) return err(coreError('FILE_TOO_LARGE'));
  return ok(bytes);
}

async function readPngFile(path: string, maxBytes: number): Promise<Result<Uint8Array, CoreError>> {
  if (!isAbsolute(path)) return err(invalidRequest('path must be an absolute file path.'));
  try {
    const info = await stat(path);
    if (!info.isFile()) return err(invalidRequest(`There is no file at ${path}.`));
    if (info.size > maxBytes) return err(coreError('FILE_TOO_LARGE'));
    const bytes = await readFile(path);
    if (bytes.length === 0) return err(invalidRequest(`The file at ${path} is empty.`));
    return ok(bytes);
  } catch {
    return err(invalidRequest(`The file at ${path} cannot be read.`));
  }
}
