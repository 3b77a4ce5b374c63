import { z } from 'zod';
import {
  findingSchema,
  type Finding,
  approvalSchema,
  priceSchema,
  engineSchema,
  geometrySchema,
  marginsSchema,
  submissionStatuses,
  type Margin,
  type Submission,
  markedPlaces,
  numberedFindings,
} from '../core/index.ts';

/** What submit_design answers: the submission's outcome, in structure and in words. */

const HEBREW_NOTE =
  'The approval page is in Hebrew (right to left). Tell the person so: it shows the piece as worn and flat with a millimetre ruler, its size in wrist or ring terms, what the engine changed and the price. Approving asks them to sign in or sign up on the way; declining can carry a reason, which check_approval reports.';

export const submissionOutputSchema = z.object({
  jobId: z.string(),
  jobHandle: z.string().describe('The handle naming this job in submit_design and check_approval.'),
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
type SubmissionOutput = z.infer<typeof submissionOutputSchema>;

export function submissionOutput(
  job: { id: string; handle: string },
  s: Submission,
  submissionsLeft: number | null,
  pollIntervalSec: number,
): SubmissionOutput {
  const ready = s.status === 'ready';
  return {
    jobId: job.id,
    jobHandle: job.handle,
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
      ? `Give the person the approval link and show them the preview. Then call check_approval with jobHandle "${job.handle}" no more often than the poll interval (${pollIntervalSec} s) to learn their decision.`
      : s.status === 'failed_validation'
        ? `Fix every error as its agent_instruction says, then call submit_design again with jobHandle "${job.handle}" and the corrected PNG.`
        : 'Follow the errors agent_instruction before trying again.',
  };
}

/** The text a model reads: the outcome, every finding with its places, and the next step. */
export function submissionSummary(o: SubmissionOutput, attached: { preview: boolean; svgLinks: boolean }): string {
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
    lines.push(attached.preview ? 'A PNG preview of the piece is attached.' : 'No preview image could be attached.');
    if (attached.svgLinks) {
      lines.push('The cutting file and the preview are linked as SVG resources (resources/read).');
    }
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

/** Most places listed per finding in the texts; the picture circles them all. */
const LISTED_PLACES = 8;

/** The words beside the findings picture: what each number means and where its places are in the agent's image. */
export function pictureLegend(s: Submission): string {
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

function marginText(m: Margin | null, searchedMm: number): string {
  return m ? `${m.widthMm} mm (floor ${m.floorMm} mm) at x=${m.at.x} y=${m.at.y} mm` : `none under ${searchedMm} mm`;
}

function findingLine(f: Finding, i: number): string {
  const at = f.locations?.length
    ? ` At (mm on the strip): ${f.locations
        .slice(0, LISTED_PLACES)
        .map((l) => `x=${l.x} y=${l.y} r=${l.r}${l.px ? ` (pixel ${l.px.x}, ${l.px.y} of your image)` : ''}`)
        .join('; ')}${f.locations.length > LISTED_PLACES ? `; and ${f.locations.length - LISTED_PLACES} more` : ''}.`
    : '';
  return `${i + 1}. ${f.code}: ${f.message} What to do: ${f.agent_instruction}${at}`;
}
