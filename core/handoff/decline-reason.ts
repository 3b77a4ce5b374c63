import { err, ok, type Result } from '../result.ts';

/**
 * Why the person declined, as they may say it on the approval page: one of a few fixed choices,
 * their own words, both, or neither (then there is no reason at all: `null`).
 */
export const declineChoices = ['price', 'size', 'look', 'changes', 'other'] as const;
export type DeclineChoice = (typeof declineChoices)[number];

/** What each choice means, in the words agents read (the OpenAPI document, the MCP tools, the docs). */
export const declineChoiceMeanings: Record<DeclineChoice, string> = {
  price: 'the price is too high',
  size: 'the size is wrong for them',
  look: 'the design does not look like what they wanted',
  changes: "the changes the engine made to the drawing, listed in the submission's warnings, are not acceptable",
  other: 'another reason, which their text may give',
};

/** Every choice with its meaning, in one line of English: `price (the price is too high), …`. */
export const declineChoicesInWords = (): string =>
  declineChoices.map((code) => `${code} (${declineChoiceMeanings[code]})`).join(', ');

/** The stored and published reason: `choice` and `text` each null when not given, never both. */
export interface DeclineReason {
  choice: DeclineChoice | null;
  text: string | null;
}

/** Why a reason was refused; the decline is then not made, so the person can correct it. */
type DeclineReasonRefusal = { code: 'DECLINE_TEXT_TOO_LONG'; maxChars: number } | { code: 'DECLINE_CHOICE_UNKNOWN' };

/** The form's fields as they arrived; a missing field and an empty one mean the same. */
interface DeclineReasonInput {
  choice?: string | undefined;
  text?: string | undefined;
}

// Control characters (C0, DEL, C1), except the newline that separates the person's lines.
const CONTROL = /(?!\n)\p{Cc}/gu;

/**
 * The person's words as they are kept: browsers send a textarea's line breaks as CRLF, so every
 * line break becomes one `\n` (which is also how `maxlength` counted them); other control
 * characters are removed; surrounding white space is trimmed.
 */
function cleanDeclineText(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(CONTROL, '').trim();
}

/** Characters as a person counts them (code points), never more than a browser's `maxlength` counts. */
const characterCount = (text: string): number => Array.from(text).length;

const isChoice = (value: string): value is DeclineChoice => (declineChoices as readonly string[]).includes(value);

/**
 * Reads a decline's reason: `null` when neither a choice nor any text was given. An unknown choice
 * and a text over `maxChars` characters (after cleaning) are refused, never dropped or truncated:
 * the person's decline should carry what they meant, or be asked again.
 */
export function parseDeclineReason(
  input: DeclineReasonInput,
  maxChars: number,
): Result<DeclineReason | null, DeclineReasonRefusal> {
  const choiceField = input.choice?.trim() ?? '';
  const choice = choiceField === '' ? null : isChoice(choiceField) ? choiceField : undefined;
  if (choice === undefined) return err({ code: 'DECLINE_CHOICE_UNKNOWN' });
  const text = cleanDeclineText(input.text ?? '');
  if (characterCount(text) > maxChars) return err({ code: 'DECLINE_TEXT_TOO_LONG', maxChars });
  return ok(choice === null && text === '' ? null : { choice, text: text === '' ? null : text });
}

/** A reason read back from the `jobs.decline_reason` column; anything not of its shape reads as none. */
export function storedDeclineReason(value: unknown): DeclineReason | null {
  if (!value || typeof value !== 'object') return null;
  const { choice, text } = value as Record<string, unknown>;
  const reason: DeclineReason = {
    choice: typeof choice === 'string' && isChoice(choice) ? choice : null,
    text: typeof text === 'string' && text !== '' ? text : null,
  };
  return reason.choice === null && reason.text === null ? null : reason;
}
