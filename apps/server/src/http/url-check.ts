import type { FastifyInstance } from 'fastify';
import { StoaError } from '@stoa/contract';
import { sendProblem } from './problem.js';

/**
 * True when every `%` of a URL starts a valid escape and the escapes decode to UTF-8. The router and the query
 * parser would otherwise pass a broken escape on as literal text ("%ZZ" becomes a file name) or fail later.
 */
function isWellEncoded(url: string): boolean {
  if (!url.includes('%')) return true;
  try {
    decodeURIComponent(url);
    return true;
  } catch {
    return false;
  }
}

/** Refuses requests whose path or query string is not well percent-encoded, before any route sees them. */
export function refuseBadlyEncodedUrls(app: FastifyInstance): void {
  // A callback hook (no promise per request, issue 30); a refusal answers and does not go on.
  app.addHook('onRequest', (req, reply, done) => {
    if (isWellEncoded(req.url)) return done();
    sendProblem(
      reply,
      req,
      new StoaError('bad_request', 'the URL holds a malformed percent-encoding (a "%" not followed by two hex digits, or bytes that are not UTF-8)'),
    );
  });
}
