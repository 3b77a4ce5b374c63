import type { z } from 'zod';
import { words, type Text } from './agent-words.ts';

/**
 * Turns the first zod issue of a request body into a message that names the field's path,
 * so an agent can fix exactly that field. `special` may claim issues under a path prefix; an
 * unknown field in the claimed object is still named before the claim's own words.
 */
export function describeIssues(
  error: z.ZodError,
  knownKeys: (path: PropertyKey[]) => string[],
  special: (path: PropertyKey[]) => Text | undefined = () => undefined,
): Text {
  // An unknown key explains a "missing" one (a misspelling), so it is named first.
  const issue = error.issues.find((i) => i.code === 'unrecognized_keys') ?? error.issues[0];
  if (!issue) return 'The request is malformed.';
  const claimed = special(issue.path);
  if (claimed) {
    const unknown = unknownKeyOf(issue.input, knownKeys(issue.path));
    return unknown === undefined ? claimed : words`${unknownField(issue.path, unknown, knownKeys)} ${claimed}`;
  }
  const where = pathText(issue.path);
  switch (issue.code) {
    case 'unrecognized_keys':
      return unknownField(issue.path, issue.keys[0] ?? '', knownKeys);
    case 'invalid_type':
      if (issue.path.length === 0) return 'The request body must be a JSON object.';
      if (issue.input === undefined) return `Missing required field "${where}".`;
      return `Field "${where}" must be ${article(issue.expected)}.`;
    case 'invalid_value':
      return `Field "${where}" must be one of: ${issue.values.map((v) => JSON.stringify(v)).join(', ')}.`;
    case 'too_big':
      return `Field "${where}" is too long: at most ${String(issue.maximum)} characters.`;
    default:
      return `Field "${where}" is invalid: ${issue.message}.`;
  }
}

const pathText = (path: PropertyKey[]): string => path.map(String).join('.');

function unknownField(path: PropertyKey[], key: string, knownKeys: (path: PropertyKey[]) => string[]): string {
  const suggestion = knownKeys(path).find((k) => k.toLowerCase() === key.toLowerCase());
  return `Unknown field "${pathText([...path, key])}".${suggestion ? ` Did you mean "${pathText([...path, suggestion])}"?` : ''}`;
}

/**
 * A key of an object that none of `known` names. A union of strict objects (the size forms) is
 * refused as a whole, without saying which key no form has, so it is looked for here.
 */
function unknownKeyOf(input: unknown, known: string[]): string | undefined {
  if (known.length === 0 || typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  return Object.keys(input).find((key) => !known.includes(key));
}

const article = (expected: string): string => (/^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`);
