/**
 * The passwords attackers try first: the 49,233 most frequent in a 10-million-password leak
 * compilation, as the zxcvbn-ts project ships them (lower case, ASCII; MIT). Loaded on the first
 * sign-up, not at start: the package costs about 14 MB and 20 ms to import, which a process that
 * never sees a sign-up (the stdio MCP server, most instances most of the time) need not pay.
 */
let list: Promise<ReadonlySet<string>> | undefined;
const commonPasswords = (): Promise<ReadonlySet<string>> =>
  (list ??= import('@zxcvbn-ts/language-common').then(({ dictionary }) => new Set(dictionary['passwords-common'])));

/**
 * True when the password is on the list, read as a person would type it again: compatibility forms
 * folded (NFKC, as the hash does: full-width letters are the letters), case and surrounding spaces
 * ignored, since `Password ` is no harder to guess than `password`. Also true for the patterns
 * guessers try beside the list, which the leaks hold only some of: a unit said over again
 * (`aaaaaaaa`, `12341234`, `passwordpassword`) and a run of characters stepping one up or one down
 * (`abcdefgh`, `98765432`).
 */
export const isCommonPassword = async (password: string): Promise<boolean> => {
  const typed = password.normalize('NFKC').trim().toLowerCase();
  const listed = await commonPasswords();
  return listed.has(typed) || isRepeat([...typed], listed) || isRun([...typed]);
};

/** Longest unit a repeat may have and still be refused when the unit itself is not on the list. */
const SHORT_UNIT = 4;

/** The characters as one unit repeated (a partial unit may end them), the unit short or on the list. */
function isRepeat(chars: string[], listed: ReadonlySet<string>): boolean {
  for (let unit = 1; unit <= chars.length / 2; unit++) {
    if (!chars.every((c, i) => i < unit || c === chars[i - unit])) continue;
    if (unit <= SHORT_UNIT || listed.has(chars.slice(0, unit).join(''))) return true;
  }
  return false;
}

/** Characters whose code points step one up, or one down, from each to the next. */
function isRun(chars: string[]): boolean {
  const codes = chars.map((c) => c.codePointAt(0)!);
  const step = (codes[1] ?? 0) - (codes[0] ?? 0);
  return codes.length > 2 && Math.abs(step) === 1 && codes.every((c, i) => i === 0 || c - codes[i - 1]! === step);
}
