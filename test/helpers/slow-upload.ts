import { connect, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';

/** One HTTP/1.1 answer as read off the socket. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface SlowUpload {
  port: number;
  /** The request target, e.g. `/api/agent/v1/jobs/{id}/submissions`. */
  path: string;
  headers?: Record<string, string>;
  /** Size of the `image` file part; the multipart body is this plus its framing. */
  fileBytes: number;
  /** Send the body with `Transfer-Encoding: chunked` instead of a `Content-Length`. */
  chunked?: boolean;
  /** The client's link: it never sends faster than this. */
  bytesPerSecond: number;
}

export interface SlowUploadOutcome {
  /** Body bytes the client managed to hand to its socket. */
  sent: number;
  /** The first answer, read once the whole body was sent; absent when the connection broke first. */
  answer?: RawAnswer;
  /** What ended the connection under the client (`EPIPE`, `ECONNRESET`), if anything did. */
  error?: string;
  socket: Socket;
}

const BOUNDARY = 'slow-upload-boundary-5c1e';
const PIECE = 64 * 1024;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The multipart body in pieces of at most `PIECE` bytes, made as it is sent (a body can be far larger than memory). */
function* multipartBody(fileBytes: number): Generator<Buffer> {
  yield Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="image"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const filler = Buffer.alloc(PIECE);
  for (let at = 0; at < fileBytes; at += PIECE) {
    const piece = filler.subarray(0, Math.min(PIECE, fileBytes - at));
    yield at === 0 ? Buffer.concat([PNG_SIGNATURE, piece.subarray(PNG_SIGNATURE.length)]) : piece;
  }
  yield Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
}

const multipartLength = (fileBytes: number): number => {
  let length = 0;
  for (const piece of [...multipartBody(0)]) length += piece.length;
  return length + fileBytes;
};

/**
 * A client on a raw socket that uploads a multipart file over a slow link and reads nothing until
 * it has sent the whole body: the client that an early refusal (413 on Content-Length, 404 before
 * the body, 413 mid-stream) leaves still sending. The pacing stands for the link's speed; nothing
 * waits on it for the server to get somewhere.
 */
export async function slowUpload(upload: SlowUpload): Promise<SlowUploadOutcome> {
  const length = multipartLength(upload.fileBytes);
  const socket = connect(upload.port, '127.0.0.1');
  const outcome: SlowUploadOutcome = { sent: 0, socket };
  let broken = false;
  socket.on('error', (error: NodeJS.ErrnoException) => {
    outcome.error ??= error.code ?? String(error);
    broken = true;
  });
  socket.on('close', () => (broken = true));
  await new Promise((resolve) => socket.once('connect', resolve));
  const headers = {
    host: `127.0.0.1:${upload.port}`,
    'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
    ...(upload.chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(length) }),
    ...upload.headers,
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.write(`POST ${upload.path} HTTP/1.1\r\n${head.join('')}\r\n`);
  const pause = (PIECE / upload.bytesPerSecond) * 1000;
  for (const piece of multipartBody(upload.fileBytes)) {
    if (broken) return outcome;
    const framed = upload.chunked ? [`${piece.length.toString(16)}\r\n`, piece, '\r\n'] : [piece];
    let flushed = true;
    for (const part of framed) flushed = socket.write(part);
    outcome.sent += piece.length;
    if (!flushed) await Promise.race([new Promise((resolve) => socket.once('drain', resolve)), closed(socket)]);
    await delay(pause);
  }
  if (upload.chunked && !broken) socket.write('0\r\n\r\n');
  if (broken) return outcome;
  outcome.answer = await readAnswer(socket).catch(() => undefined);
  return outcome;
}

const closed = (socket: Socket): Promise<void> =>
  socket.destroyed ? Promise.resolve() : new Promise((resolve) => socket.once('close', () => resolve()));

/** The socket's next HTTP/1.1 answer (its body sized by Content-Length), leaving the socket open. */
export function readAnswer(socket: Socket): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const onData = (data: Buffer) => {
      received = Buffer.concat([received, data]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [statusLine, ...lines] = received.subarray(0, end).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      const length = Number(headers['content-length'] ?? 0);
      if (received.length < end + 4 + length) return;
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.pause();
      const rest = received.subarray(end + 4 + length);
      if (rest.length > 0) socket.unshift(rest);
      resolve({
        status: Number(statusLine!.split(' ')[1]),
        headers,
        body: received.subarray(end + 4, end + 4 + length).toString('utf8'),
      });
    };
    const onClose = () => reject(new Error(`the connection closed before a whole answer (${received.length} bytes)`));
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.resume();
  });
}

/** Resolves once the other end has closed the connection (an end or an error, then close). */
export function closedByServer(socket: Socket): Promise<void> {
  socket.resume();
  return closed(socket);
}
