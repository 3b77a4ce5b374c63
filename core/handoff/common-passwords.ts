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
 * ignored, since `Password ` is no harder to guess than `password`.
 */
export const isCommonPassword = async (password: string): Promise<boolean> =>
  (await commonPasswords()).has(password.normalize('NFKC').trim().toLowerCase());
