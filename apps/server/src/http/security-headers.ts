import type { FastifyInstance } from 'fastify';

/**
 * The web UI's policy: everything from this origin only. `blob:` is allowed for images and frames because the
 * preview panel shows fetched image and PDF bytes as blob URLs; nothing may frame Stoa.
 */
const PAGE_CSP = [
  "default-src 'self'",
  "img-src 'self' blob:",
  "frame-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The policy of every answer that carries a user's bytes — downloads, signed links, WebDAV GET, zips: nothing
 * runs, loads or submits, and the content is in an opaque origin of its own (sandbox), so an uploaded HTML or SVG
 * opened from such a URL cannot act with the reader's session (issue 27). Previews add images and inline styles.
 */
export const USER_CONTENT_CSP = "default-src 'none'; sandbox";

/**
 * Headers every response carries — pages, assets, API answers, previews, WebDAV: no MIME sniffing, no framing,
 * no referrer. A response that set its own Content-Security-Policy (previews: a sandbox) keeps it, and gains
 * `frame-ancestors 'none'` when it lacks one.
 */
export function addSecurityHeaders(app: FastifyInstance): void {
  // A callback hook, not an async one: it runs on every response, and a promise per response costs CPU (issue 30).
  app.addHook('onSend', (_req, reply, payload, done) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('X-Frame-Options', 'DENY');
    reply.header('Referrer-Policy', 'no-referrer');
    const csp = reply.getHeader('Content-Security-Policy');
    if (typeof csp !== 'string') reply.header('Content-Security-Policy', PAGE_CSP);
    else if (!/frame-ancestors/.test(csp)) reply.header('Content-Security-Policy', `${csp}; frame-ancestors 'none'`);
    done(null, payload);
  });
}
