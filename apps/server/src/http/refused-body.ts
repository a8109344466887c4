import { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** How long a connection whose upload was refused may live on, writing the answer, before it is dropped. */
const REFUSED_BODY_LINGER_MS = 5_000;

/**
 * A streamed upload was refused before its body ended (413, 403, a bad path…). Answer, then end the connection:
 * reading the rest of a 50 GB body would keep the server busy and the client waiting, and keeping the
 * connection for another request would leave it hanging. `Connection: close` makes Node end the socket once the
 * answer is written; what still arrives meanwhile is discarded, and a client that never reads the answer is
 * dropped after a bound.
 */
export function endRefusedBody(req: FastifyRequest, reply: FastifyReply): void {
  const raw = req.raw;
  if (raw.complete) return;
  reply.header('connection', 'close');
  if (!raw.destroyed) {
    raw.on('error', () => undefined);
    raw.resume();
  }
  const socket = raw.socket ?? reply.raw.socket;
  // Requests injected in-process (tests, the CLI's local mode) have no real connection to end.
  if (!(socket instanceof Socket)) return;
  const timer = setTimeout(() => socket.destroy(), REFUSED_BODY_LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

/**
 * RFC 2046 boundary: 1–70 characters from a fixed set. The multipart parser gives up on longer ones with an
 * error of its own, so the rule is checked before parsing starts.
 */
export function multipartBoundaryProblem(contentType: string | undefined): string | null {
  if (!contentType || !/^multipart\/form-data\b/i.test(contentType)) return 'send multipart/form-data with one or more file parts';
  const m = /;\s*boundary=(?:"([^"]*)"|([^;\s]*))/i.exec(contentType);
  const boundary = m?.[1] ?? m?.[2];
  if (!boundary) return 'the multipart Content-Type has no boundary';
  if (boundary.length > 70) return `the multipart boundary is ${boundary.length} characters long; at most 70 are allowed`;
  if (!/^[0-9A-Za-z'()+_,\-./:=? ]*[0-9A-Za-z'()+_,\-./:=?]$/.test(boundary)) return 'the multipart boundary holds characters that are not allowed';
  return null;
}
