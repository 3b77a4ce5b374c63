/** Structured log lines. Callers pass facts, never secrets, cookies or image bytes. */
export interface Logger {
  info(fields: Record<string, unknown>): void;
  warn(fields: Record<string, unknown>): void;
  error(fields: Record<string, unknown>): void;
}

/** A job secret (`ajs_` + base64url) wherever it strays, e.g. into an error's text or a mistyped path. */
const JOB_SECRET = /ajs_[A-Za-z0-9_-]+/g;

export function jsonLogger(write: (line: string) => void = (line) => process.stdout.write(line)): Logger {
  const emit = (level: string) => (fields: Record<string, unknown>) =>
    write(
      `${JSON.stringify({ time: new Date().toISOString(), level, ...fields }).replace(JOB_SECRET, 'ajs_[redacted]')}\n`,
    );
  return { info: emit('info'), warn: emit('warn'), error: emit('error') };
}

/**
 * An error as it may be logged: its text and its cause's, without the `params:` that drizzle appends
 * to a failed query (they can hold an approval token or an email address).
 */
export function errorText(error: unknown): string {
  const text = (e: unknown) => String(e).replace(/\nparams: [\s\S]*$/, '');
  const cause = error instanceof Error && error.cause !== undefined ? `; cause: ${text(error.cause)}` : '';
  return `${text(error)}${cause}`;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
