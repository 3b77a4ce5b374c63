import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { coreError, type CoreError } from '../core/index.ts';
import { envelopeOf } from './respond.ts';
import { FRAME_ANCESTORS_NONE } from './security-headers.ts';

/**
 * What Node's HTTP parser could not read never reaches a route: a body that ends before its
 * Content-Length (the client closed its side), a request line or headers that are not HTTP, headers
 * over Node's size limit, a request not received within the server's time limits. Node answers
 * those itself with a bare status line and no body; the contract wants every answer of the API in
 * its envelope, so the same statuses are answered here with one (`INVALID_REQUEST`, saying what
 * was wrong and what to send instead), and the connection is closed as Node closes it.
 */
export function answerUnreadableRequests(
  server: Server,
  limits: { headersTimeoutMs: number; requestTimeoutMs: number },
): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A response already under way (or a socket gone) cannot take another: Node's own rule.
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const { status, refusal } = unreadable(error.code, limits);
    const body = JSON.stringify(envelopeOf(refusal));
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        // The headers every answer carries (security-headers.ts), which this one bypasses.
        `Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nContent-Security-Policy: ${FRAME_ANCESTORS_NONE}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}

/** Node's status for each kind of unreadable request (as its own answer has it), and our words for it. */
function unreadable(
  code: string | undefined,
  limits: { headersTimeoutMs: number; requestTimeoutMs: number },
): { status: number; refusal: CoreError } {
  const refusal = (message: string, instruction: string) =>
    coreError('INVALID_REQUEST', { message, agent_instruction: instruction });
  if (code === 'HPE_INVALID_EOF_STATE') {
    return {
      status: 400,
      refusal: refusal(
        'The request body ended before its declared end (Content-Length): the connection was closed while it was being sent.',
        'Send the whole request again on a new connection, with a Content-Length that matches the body.',
      ),
    };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return {
      status: 408,
      refusal: refusal(
        `The request was not received in time: its headers must arrive within ${limits.headersTimeoutMs / 1000} s ` +
          `and the whole request within ${limits.requestTimeoutMs / 1000} s.`,
        'Send the request again at once, in one go, on a new connection.',
      ),
    };
  }
  if (code === 'HPE_HEADER_OVERFLOW') {
    return {
      status: 431,
      refusal: refusal(
        'The request headers are larger than the server accepts.',
        'Send the request again with only the headers the API reads (Authorization, Content-Type, Idempotency-Key).',
      ),
    };
  }
  return {
    status: 400,
    refusal: refusal(
      'The request could not be read as HTTP/1.1 (a malformed request line, header or chunked body).',
      'Send a well-formed HTTP/1.1 request.',
    ),
  };
}
