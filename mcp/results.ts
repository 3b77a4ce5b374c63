import type { CallToolResult } from '@modelcontextprotocol/server';
import { coreError, wordsIn, type AgentTerms, type CoreError } from '../core/index.ts';

type Content = CallToolResult['content'][number];

/** A successful tool result: a text block that stands on its own, plus the structured answer. */
export function toolResult(text: string, structured: Record<string, unknown>, extra: Content[] = []): CallToolResult {
  return { content: [{ type: 'text', text }, ...extra], structuredContent: structured };
}

/** The size forms as open_job takes them: flat fields, where REST nests them in `size`. */
export const FLAT_SIZE_FORMS_MESSAGE =
  'Give the size in exactly one of three forms: wristMm (a number, with optional fit "snug", "comfort" or "loose"; bracelet only), usRingSize (a number; ring only), or lengthMm (a number; either product).';

/** The slots of core's words (`core/contract/agent-words.ts`) as a caller of these tools acts on them. */
export const mcpTerms: AgentTerms = {
  openJob: 'the open_job tool',
  openJobRequest: 'open_job call',
  capabilities: 'get_capabilities',
  productRange: (range) => `get_capabilities → products[productType].${range}`,
  sizeField: (field) => field,
  sizeForms: FLAT_SIZE_FORMS_MESSAGE,
  awaitOutcome: () =>
    'call submit_design again with the same image: once processing has finished it returns the stored outcome without using another submission.',
  sendPng: 'Send the drawing as a PNG, base64-encoded in pngBase64.',
};

/**
 * A refusal as the model sees it: `isError: true` with the contract's code, message and
 * instruction, in words and as the contract's JSON envelope. Never a protocol error.
 */
export function toolError(error: CoreError): CallToolResult {
  const { message, agent_instruction: instruction } = wordsIn(error, mcpTerms);
  const envelope = {
    error: {
      code: error.code,
      message,
      ...(instruction ? { agent_instruction: instruction } : {}),
      ...(error.retryable !== undefined ? { retryable: error.retryable } : {}),
      ...(error.retryAfterSec !== undefined ? { retryAfterSec: error.retryAfterSec } : {}),
    },
  };
  const lines = [`Error ${error.code}: ${envelope.error.message}`];
  if (instruction) lines.push(`What to do: ${instruction}`);
  if (error.retryAfterSec !== undefined) lines.push(`Retry no sooner than ${error.retryAfterSec} seconds from now.`);
  return {
    isError: true,
    content: [
      { type: 'text', text: lines.join('\n') },
      { type: 'text', text: JSON.stringify(envelope) },
    ],
  };
}

/** The refusal for a bug: the contract's PROCESSING_FAILED, without the cause's text. */
const unexpectedFailure = (): CallToolResult => toolError(coreError('PROCESSING_FAILED'));

/** Runs a tool body; a throw becomes PROCESSING_FAILED (logged by the caller), never a protocol error. */
export async function guarded(
  body: () => Promise<CallToolResult>,
  onError: (cause: unknown) => void,
): Promise<CallToolResult> {
  try {
    return await body();
  } catch (cause) {
    onError(cause);
    return unexpectedFailure();
  }
}
