/**
 * A refusal of the MCP endpoint itself, before any MCP server reads the request, as the JSON-RPC
 * error the streamable HTTP transport answers with (`id` null: the request was not read as one).
 */
export function rpcError(
  status: number,
  code: number,
  message: string,
  options: { headers?: Record<string, string> } = {},
): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...options.headers },
  });
}
