import { SIZE_FORMS_MESSAGE } from './create-job.ts';

/** A field of the size, which REST nests in `size` and the MCP tool takes flat. */
type SizeField = 'wristMm' | 'fit' | 'usRingSize' | 'lengthMm';

/**
 * A place in an agent's words where it must be told how to act on its own surface: which request or
 * tool opens a job, where the limits are read, how a field is named. Core writes the words with
 * slots; each adapter fills them (`AgentTerms`).
 */
export type Slot =
  | { slot: 'openJob' }
  | { slot: 'openJobRequest' }
  | { slot: 'capabilities' }
  | { slot: 'productRange'; range: 'lengthRangeMm' | 'widthRangeMm' }
  | { slot: 'sizeField'; field: SizeField }
  | { slot: 'sizeForms' }
  | { slot: 'awaitOutcome'; submission?: { jobId: string; no: number } }
  | { slot: 'sendPng' };

/** Words for an agent: text with slots, filled by the surface that answers (`say`). */
type AgentWords = readonly (string | Slot)[];

/** How a surface names what the slots stand for. */
export interface AgentTerms {
  /** The request or tool that opens a job, as in "Open a new job with … to continue." */
  openJob: string;
  /** The same, as in "Wait 60 seconds before the next …". */
  openJobRequest: string;
  /** Where the accepted values are read. */
  capabilities: string;
  /** Where a product's length or width range is read. */
  productRange(range: 'lengthRangeMm' | 'widthRangeMm'): string;
  sizeField(field: SizeField): string;
  /** The three size forms, in this surface's fields. */
  sizeForms: string;
  /** How to learn the outcome of an upload still being processed, after "Wait 10 seconds, then ". */
  awaitOutcome(submission?: { jobId: string; no: number }): string;
  /** How to send the drawing as a PNG. */
  sendPng: string;
}

/** The contract's own terms: what the REST API says (agent-api-v1.md). */
export const contractTerms: AgentTerms = {
  openJob: 'POST /jobs',
  openJobRequest: 'POST /jobs request',
  capabilities: 'GET /capabilities',
  productRange: (range) => `capabilities.products[productType].${range}`,
  sizeField: (field) => `size.${field}`,
  sizeForms: SIZE_FORMS_MESSAGE,
  awaitOutcome: (submission) =>
    `read GET /jobs/${submission?.jobId ?? '{jobId}'}/submissions/${submission?.no ?? '{no}'} until its status leaves processing. Do not upload the same bytes again meanwhile.`,
  sendPng:
    'Set Content-Type: image/png and send the PNG bytes as the body, or send multipart/form-data with the file in a field named "image" typed image/png.',
};

/** The slots, to write words with (`words`). */
export const slot = {
  openJob: { slot: 'openJob' },
  openJobRequest: { slot: 'openJobRequest' },
  capabilities: { slot: 'capabilities' },
  productRange: (range: 'lengthRangeMm' | 'widthRangeMm'): Slot => ({ slot: 'productRange', range }),
  sizeField: (field: SizeField): Slot => ({ slot: 'sizeField', field }),
  sizeForms: { slot: 'sizeForms' },
  awaitOutcome: (submission?: { jobId: string; no: number }): Slot =>
    submission ? { slot: 'awaitOutcome', submission } : { slot: 'awaitOutcome' },
  sendPng: { slot: 'sendPng' },
} as const satisfies Record<string, Slot | ((...args: never[]) => Slot)>;

/** Text or words with slots: what an error's message and instruction are written as. */
export type Text = string | AgentWords;

/** Words from a template literal: `words\`Open a new job with ${slot.openJob} to continue.\``. */
export function words(strings: TemplateStringsArray, ...values: (string | number | Slot | AgentWords)[]): AgentWords {
  const parts: (string | Slot)[] = [strings[0]!];
  values.forEach((value, i) => {
    if (typeof value === 'string' || typeof value === 'number') parts.push(String(value));
    else if (Array.isArray(value)) parts.push(...(value as AgentWords));
    else parts.push(value as Slot);
    parts.push(strings[i + 1]!);
  });
  return parts.filter((part) => part !== '');
}

/** Whether the text has a slot to fill. */
export const hasSlots = (text: Text): text is AgentWords =>
  typeof text !== 'string' && text.some((p) => typeof p !== 'string');

/** The text as a surface says it, its slots filled with that surface's terms. */
export function say(text: Text, terms: AgentTerms): string {
  if (typeof text === 'string') return text;
  return text.map((part) => (typeof part === 'string' ? part : fill(part, terms))).join('');
}

function fill(part: Slot, terms: AgentTerms): string {
  switch (part.slot) {
    case 'productRange':
      return terms.productRange(part.range);
    case 'sizeField':
      return terms.sizeField(part.field);
    case 'awaitOutcome':
      return terms.awaitOutcome(part.submission);
    default:
      return terms[part.slot];
  }
}
