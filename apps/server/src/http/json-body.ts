import type { FastifyInstance } from 'fastify';
import { BODY_MAX_DEPTH, StoaError } from '@stoa/contract';
import { jsonDepth } from '@stoa/core';

/**
 * JSON request bodies under a budget, on every route, public ones and `/mcp` included: at most `maxBytes` (413
 * too_large, before a byte is parsed) and nested at most BODY_MAX_DEPTH deep (400 too_deep, found by a linear
 * scan of the raw text before JSON.parse). A few MB of `[[[[…` from anyone without a token once held the event loop
 * for ~10 s and left the server at 1.3 GB (issue 27).
 *
 * @example
 * limitJsonBodies(app, platform.config.limits.jsonBodyBytes);
 */
export function limitJsonBodies(app: FastifyInstance, maxBytes: number): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: maxBytes }, (req, body, done) => {
    const depth = jsonDepth(body as string, BODY_MAX_DEPTH);
    if (depth > BODY_MAX_DEPTH) return done(new StoaError('too_deep', `the JSON body nests more than ${BODY_MAX_DEPTH} levels deep`), undefined);
    return parse(req, body as string, done);
  });
}
