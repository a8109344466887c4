import type { FastifyInstance, FastifyRequest } from 'fastify';
import { StoaError } from '@stoa/contract';
import type { Platform } from '@stoa/core';
import { SESSION_COOKIE } from './auth.js';
import { sendProblem } from './problem.js';
import { endRefusedBody } from './refused-body.js';

/** Methods that change nothing; everything else — POST, PUT, PATCH, DELETE, WebDAV's own — may change something. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Credentials a browser adds by itself to a request another page makes: the session cookie, and Basic
 * credentials it remembers for WebDAV. A bearer token is never added by the browser, so a request that carries
 * one was written by a client that holds it, and is exempt.
 */
function ambientlyAuthenticated(req: FastifyRequest): boolean {
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && /^Bearer\s+/i.test(auth)) return false;
  if (typeof auth === 'string' && /^Basic\s+/i.test(auth)) return true;
  const cookie = req.headers.cookie;
  return typeof cookie === 'string' && new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=`).test(cookie);
}

/** The host (and port) an origin names, or null for `null` and malformed origins. */
function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Refuses a change made with the session cookie (or browser-remembered Basic credentials) that another site's
 * page started (issue 27). `SameSite=Strict` keeps the cookie off cross-site requests already, but not off
 * requests from a sibling subdomain (same site, another origin), nor off browsers that ignore the attribute.
 * The browser's own headers decide: `Sec-Fetch-Site` must be `same-origin` (or `none`: typed by the user), and
 * `Origin`, when sent, must name this server — its configured public URL or the host the request was sent to.
 * Requests without either header come from clients that are not browsers and pass.
 *
 * @example
 * refuseCrossSiteChanges(app, platform); // before any route
 */
export function refuseCrossSiteChanges(app: FastifyInstance, platform: Platform): void {
  const configured = platform.config.publicUrl ? hostOf(platform.config.publicUrl) : null;
  // A callback hook (no promise per request, issue 30); a refusal answers and does not go on.
  app.addHook('onRequest', (req, reply, done) => {
    if (SAFE_METHODS.has(req.method) || !ambientlyAuthenticated(req)) return done();
    const site = req.headers['sec-fetch-site'];
    const origin = req.headers.origin;
    const host = typeof req.headers.host === 'string' ? req.headers.host.toLowerCase() : null;
    const badSite = typeof site === 'string' && site !== 'same-origin' && site !== 'none';
    const originHost = typeof origin === 'string' ? hostOf(origin) : undefined;
    const badOrigin = originHost !== undefined && (originHost === null || (originHost !== host && originHost !== configured));
    if (!badSite && !badOrigin) return done();
    endRefusedBody(req, reply);
    sendProblem(
      reply,
      req,
      new StoaError('cross_site', 'this change came from another site; changes made with the session cookie must come from the Stoa web UI itself'),
    );
  });
}
