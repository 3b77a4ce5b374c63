import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * The passwords attackers try first: the 49,233 most frequent in a 10-million-password leak
 * compilation, as the zxcvbn-ts project ships them (lower case, ASCII; MIT). Built once, read only.
 */
const COMMON_PASSWORDS: ReadonlySet<string> = new Set(dictionary['passwords-common']);

/**
 * True when the password is on the list, read as a person would type it again: compatibility forms
 * folded (NFKC, as the hash does: full-width letters are the letters), case and surrounding spaces
 * ignored, since `Password ` is no harder to guess than `password`.
 */
export const isCommonPassword = (password: string): boolean =>
  COMMON_PASSWORDS.has(password.normalize('NFKC').trim().toLowerCase());
