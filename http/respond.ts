import type { z } from 'zod';
import type { CoreError } from '../core/index.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Every API answer: UTF-8 JSON, never cached (a 201 carries a secret). */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return jsonText(status, JSON.stringify(body), headers);
}

/**
 * A route's JSON answer, typed by the contract shape its OpenAPI operation publishes for it
 * (`ref(schema)`): a body that does not fit the shape does not compile.
 */
export function answer<S extends z.ZodType>(
  _schema: S,
  status: number,
  body: z.output<S>,
  headers: Record<string, string> = {},
): Response {
  return json(status, body, headers);
}

/** `json` for a body serialised already (one that never changes, serialised once). */
export function jsonText(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(text, {
    status,
    headers: { 'content-type': JSON_TYPE, 'cache-control': 'no-store', ...headers },
  });
}

/** The contract's error envelope, with `Retry-After` wherever the catalogue gives one. */
export function errorResponse(error: CoreError, headers: Record<string, string> = {}): Response {
  const retry: Record<string, string> =
    error.retryAfterSec === undefined ? {} : { 'retry-after': String(error.retryAfterSec) };
  return json(error.status, envelopeOf(error), { ...retry, ...headers });
}

/** The envelope's body: `{ error: { code, message, agent_instruction?, retryable? } }`. */
export function envelopeOf(error: CoreError): { error: Record<string, unknown> } {
  const body: { code: string; message: string; agent_instruction?: string; retryable?: boolean } = {
    code: error.code,
    message: error.message,
  };
  if (error.agent_instruction) body.agent_instruction = error.agent_instruction;
  if (error.retryable !== undefined) body.retryable = error.retryable;
  return { error: body };
}
