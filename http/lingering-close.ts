import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export interface LingerBounds {
  /** Body bytes read and dropped after the answer, at most. */
  maxBytes: number;
  /** How long after the answer the rest of the body may take, at most. */
  maxMs: number;
}

/**
 * Room for a file several times the 6,000,000-byte cap sent by mistake, at 2 MB/s or more; the
 * request timeout (60 s from the request's start, `server-options.ts`) ends a drain too.
 */
export const LINGER_BOUNDS: LingerBounds = { maxBytes: 32 * 1024 * 1024, maxMs: 15_000 };

/**
 * Answers that come before the request's body is all in (413 on Content-Length or past the cap,
 * 404 for a wrong secret, any refusal that needs no body) are read by a client still sending.
 * Closing the socket then, with the body still arriving, makes the kernel answer it with a reset,
 * and a client that has not read the answer yet loses it to the reset (it sees EPIPE or
 * ECONNRESET instead of the 413). So after such an answer the rest of the body is read and
 * dropped, never kept, up to `bounds`; the connection then serves its next request, or closes if
 * the answer said `Connection: close`. A client still sending past the bounds is cut off.
 *
 * The server must be served with `autoCleanupIncoming: false`: @hono/node-server's own cleanup
 * closes the socket 500 ms after the answer.
 */
export function lingerOverUnreadBodies(server: Server, bounds: LingerBounds): void {
  // Ahead of the app's listener, so the hook is in place before any answer can finish.
  server.prependListener('request', (incoming: IncomingMessage, outgoing: ServerResponse) => {
    // Ahead of Node's own 'finish' listener, which ends a `Connection: close` socket at once.
    outgoing.prependOnceListener('finish', () => {
      if (!incoming.complete && !incoming.destroyed) drainBody(incoming, bounds);
    });
  });
}

function drainBody(incoming: IncomingMessage, bounds: LingerBounds): void {
  const socket = incoming.socket;
  const destroySoon = socket.destroySoon;
  let received = 0;
  let closeWhenDrained = false;

  const stop = (close: boolean) => {
    clearTimeout(timer);
    incoming.off('data', count);
    incoming.off('end', drained);
    socket.off('close', gone);
    socket.destroySoon = destroySoon;
    if (close) socket.destroy();
  };
  const count = (chunk: Buffer) => {
    received += chunk.length;
    if (received > bounds.maxBytes) stop(true);
  };
  const drained = () => stop(closeWhenDrained);
  const gone = () => stop(false);
  const timer = setTimeout(() => stop(true), bounds.maxMs);
  timer.unref();

  // Node ends a `Connection: close` answer with destroySoon(): its FIN, then the socket destroyed as
  // soon as that is written, the body still arriving. The FIN stays (the client may read the answer
  // to its end); the destroy waits for the body.
  socket.destroySoon = () => {
    closeWhenDrained = true;
    socket.end();
  };
  // A reader the app stopped using (Readable.toWeb) would queue every byte dropped here.
  incoming.removeAllListeners('data');
  incoming.on('data', count);
  incoming.once('end', drained);
  socket.once('close', gone);
  incoming.resume();
}
