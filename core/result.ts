import type { CoreError } from './errors.ts';

/** Expected failures are values: every core operation that can be refused returns one of these. */
export type Result<T, E = CoreError> = { ok: true; value: T } | { ok: false; error: E };

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const err = <E>(error: E): Result<never, E> => ({ ok: false, error });
