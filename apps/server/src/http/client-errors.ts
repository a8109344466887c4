import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { StoaError, toProblem } from '@stoa/contract';

/** What Node's HTTP parser reports for a request it refused before any route saw it. */
type ParserError = Error & { code?: string };

/** The refusal of a request the parser could not take: its request line and headers too large, late, or malformed. */
function refusalOf(err: ParserError): StoaError {
  if (err.code === 'HPE_HEADER_OVERFLOW') return new StoaError('headers_too_large', 'the request line and headers may hold at most 16 KB together');
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return new StoaError('request_timeout', 'the request did not arrive in time');
  return new StoaError('bad_request', 'the request is not valid HTTP');
}

/**
 * Fastify's `clientErrorHandler`: a request refused by Node's HTTP parser gets the problem+json every other refusal
 * gets, with a stable `code` (headers_too_large 431, request_timeout 408, bad_request 400), instead of Fastify's own
 * `{error, message, statusCode}`; then the connection is closed, as Node does. A reset connection gets nothing.
 *
 * @example
 * Fastify({ clientErrorHandler: answerClientError });
 */
export function answerClientError(err: ParserError, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const se = refusalOf(err);
    const body = JSON.stringify(toProblem(se));
    socket.write(
      `HTTP/1.1 ${se.status} ${STATUS_CODES[se.status]}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
