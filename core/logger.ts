/** Structured log lines. Callers pass facts, never secrets, cookies or image bytes. */
export interface Logger {
  info(fields: Record<string, unknown>): void;
  warn(fields: Record<string, unknown>): void;
  error(fields: Record<string, unknown>): void;
}

export function jsonLogger(write: (line: string) => void = (line) => process.stdout.write(line)): Logger {
  const emit = (level: string) => (fields: Record<string, unknown>) =>
    write(`${JSON.stringify({ time: new Date().toISOString(), level, ...fields })}\n`);
  return { info: emit('info'), warn: emit('warn'), error: emit('error') };
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
