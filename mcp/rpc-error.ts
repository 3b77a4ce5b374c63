/**
 * A refusal of the MCP endpoint itself (before any MCP server sees the request), as the JSON-RPC
 * error object the streamable HTTP transport answers with: `id` is that of the request when it
 * was readable, `null` otherwise.
 */
export function rpcError(
  status: number,
  code: number,
  message: string,
  options: { headers?: Record<string, string>; id?: string | number | null } = {},
): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: options.id ?? null }), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...options.headers },
  });
}

/** The id of a JSON-RPC request body, to echo in a refusal; null for anything else (a batch, a response). */
export function requestIdOf(body: unknown): string | number | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const { id, method } = body as { id?: unknown; method?: unknown };
  if (typeof method !== 'string') return null;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
