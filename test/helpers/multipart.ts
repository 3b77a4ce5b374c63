/** A multipart/form-data body built by hand, so a part can have any type or none at all. */
export function multipart(
  parts: { name: string; filename?: string; type?: string; data: Uint8Array | string }[],
  boundary = 'test-boundary-7MA4YWxkTrZu0gW',
): { body: Buffer; contentType: string } {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}`;
    const headers = [`Content-Disposition: ${disposition}`, ...(part.type ? [`Content-Type: ${part.type}`] : [])];
    chunks.push(Buffer.from(`--${boundary}\r\n${headers.join('\r\n')}\r\n\r\n`));
    chunks.push(Buffer.from(part.data));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
