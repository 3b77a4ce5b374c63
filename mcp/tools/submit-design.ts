import { errorText, type Config, type Submission, type Core, pictureHelps, type AgentJob } from '../../core/index.ts';
import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { McpContext } from '../context.ts';
import { drawingInput, readDrawing } from '../drawing-input.ts';
import { handleLifetime, jobRefFieldHint, jobRefInput, resolveJobRef } from '../job-ref.ts';
import { previewPng } from '../preview-png.ts';
import { submissionSvgLinks } from '../resources/submission-svg.ts';
import { guarded, toolError, toolResult } from '../results.ts';
import { pictureLegend, submissionOutput, submissionOutputSchema, submissionSummary } from '../submission-answer.ts';
import { listedSchema, parseArguments } from '../tool-input.ts';

export const name = 'submit_design';

const inputSchema = (context: McpContext, appConfig: Config) =>
  z.strictObject({ ...jobRefInput(context, appConfig), ...drawingInput(context.transport, appConfig) });

const description = (stdio: boolean, appConfig: Config) =>
  `Uploads a drawing for a job and returns its outcome. Name the job by the jobHandle that open_job returned. ${handleLifetime(appConfig)} The drawing is black on white, made to the job drawing hints` +
  (stdio
    ? ': a PNG as base64 in pngBase64 or as an absolute local file path in path, or SVG text in svg'
    : ': a PNG as base64 in pngBase64, or SVG text in svg') +
  ` (the server renders SVG on the job's ${appConfig.image.recommendedPixels.width}x${appConfig.image.recommendedPixels.height} canvas; draw with that viewBox and the strip at job.drawing.stripPx). If status is failed_validation, every error carries an agent_instruction and locations (millimetres on the strip, and px: the same place in your image's pixels); the answer lists every problem of the drawing at once, so fix all of them accordingly and submit again (each new image uses one of the job's ${appConfig.limits.submissionsPerJob} counted submissions; resending identical bytes returns the stored outcome for free). If status is ready, the result carries the approval link to give the person (the page is in Hebrew), a PNG preview of the piece to show them, and links to the cutting file and the preview as SVG resources; then use check_approval to learn their decision. When there are errors, or changes the engine made, at places in the drawing, a findings picture (PNG) is attached too: your drawing with each place circled and numbered as the text beside it lists them (errors, then warnings), and for a ready design each change shown as drawn beside as cut.`;

/** Input and description differ by caller: only a local stdio server reads a file path, only a session knows job ids. */
export function config(context: McpContext, appConfig: Config) {
  return {
    title: 'Submit a design',
    description: description(context.transport === 'stdio', appConfig),
    inputSchema: listedSchema(inputSchema(context, appConfig)),
    outputSchema: submissionOutputSchema,
    annotations: { readOnlyHint: false, idempotentHint: true, destructiveHint: false, openWorldHint: false },
  };
}

export function registerSubmitDesignTool(server: McpServer, core: Core, context: McpContext): void {
  const schema = inputSchema(context, core.config);
  server.registerTool(name, config(context, core.config), (args) =>
    guarded(
      async () => {
        const parsed = parseArguments(schema, args, jobRefFieldHint);
        // The schema's shape varies by caller, its fields are these optional strings in every variant.
        return parsed.ok ? submit(core, context, parsed.value as SubmitArgs) : toolError(parsed.error);
      },
      (cause) => context.log?.error({ msg: 'mcp tool failed', tool: name, err: errorText(cause) }),
    ),
  );
}

type SubmitArgs = { jobHandle?: string; jobId?: string; pngBase64?: string; svg?: string; path?: string };

async function submit(core: Core, context: McpContext, args: SubmitArgs): Promise<CallToolResult> {
  const resolved = await resolveJobRef(core, context, args);
  if (!resolved.ok) return toolError(resolved.error);
  const jobRow = resolved.value.job;
  const drawing = await readDrawing(args, context.transport, core.config.image);
  if (!drawing.ok) return toolError(drawing.error);

  const answer =
    'svg' in drawing.value
      ? await core.submitSvg(jobRow, drawing.value.svg, context.clientAddress)
      : await core.submit(jobRow, drawing.value.png, context.clientAddress);
  if (!answer.ok) return toolError(answer.error);
  const { submission } = answer.value;
  // Read again after the upload: the job row now counts this submission.
  const fresh = await core.resolveAgentJob({ sessionKey: undefined }, { handle: resolved.value.handle });
  const submissionsLeft = fresh.ok ? (await core.readJob(fresh.value.job)).limits.submissionsLeft : null;

  const job = { id: resolved.value.job.id, handle: resolved.value.handle };
  const structured = submissionOutput(job, submission, submissionsLeft, core.config.limits.pollIntervalSec);
  const ready = submission.status === 'ready';
  const image = ready ? await previewImage(core, context, resolved.value, submission.no) : undefined;
  const links = ready ? submissionSvgLinks(job.handle, submission.no) : [];
  const findings = await findingsImage(core, context, resolved.value, submission);
  const text = submissionSummary(structured, { preview: image !== undefined, svgLinks: links.length > 0 });
  const extra: CallToolResult['content'] = image ? [{ type: 'image', data: image, mimeType: 'image/png' }] : [];
  extra.push(...links);
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
  { job }: AgentJob,
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

async function previewImage(core: Core, context: McpContext, { job }: AgentJob, no: number) {
  const svg = await core.readSubmissionFile(job, String(no), 'preview');
  if (!svg.ok) return undefined;
  try {
    return (await previewPng(svg.value)).toString('base64');
  } catch (cause) {
    context.log?.warn({ msg: 'mcp preview render failed', jobId: job.id, no, err: errorText(cause) });
    return undefined;
  }
}
