/**
 * Reads at most `cap` bytes of a body; a longer body stops being read at the cap ('too-large').
 * A body the client stopped sending (it hung up, or the server's request timeout cut it) is
 * 'cut-off': an ordinary refusal nobody will read, not a fault of the service. Shared by the
 * adapters that take bodies (the REST uploads and JSON bodies, the MCP endpoint).
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  cap: number,
): Promise<Uint8Array | 'too-large' | 'cut-off'> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      return 'cut-off';
    }
    if (chunk.done) break;
    total += chunk.value.byteLength;
    if (total > cap) {
      // Not cancelled: that destroys the request stream, the socket is no longer read, and a client
      // still sending stalls until the connection is reset. Released, the rest is read and dropped
      // once the refusal is out, within bounds (the listener's lingering close, http/lingering-close.ts).
      reader.releaseLock();
      return 'too-large';
    }
    chunks.push(chunk.value);
  }
  return Buffer.concat(chunks, total);
}
