import { StoaError, isStoaError, toProblem } from '@stoa/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { refusalOfDbError } from '@stoa/core';

/** Maps anything thrown to the one error type, keeping messages free of host paths and stack traces. */
export function toStoaError(e: unknown): StoaError {
  if (isStoaError(e)) return e as StoaError;
  if (e instanceof ZodError) {
    const issue = e.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    return new StoaError('bad_request', `${where}${issue?.message ?? 'invalid input'}`);
  }
  const refused = refusalOfDbError(e);
  if (refused) return refused;
  const err = e as { code?: string; statusCode?: number; message?: string };
  if (err?.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new StoaError('too_large', 'request body is too large');
  if (err?.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return new StoaError('bad_request', 'unsupported content type');
  if (err?.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || err?.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH')
    return new StoaError('bad_request', 'request body is empty or malformed');
  if (err?.statusCode === 400 && err.message && /JSON/i.test(err.message)) return new StoaError('bad_request', 'request body is not valid JSON');
  if (err?.statusCode === 413) return new StoaError('too_large', 'request body is too large');
  // The multipart parser's own refusals carry no status.
  if (!err?.statusCode && err?.message && /multipart|boundary|Missing Content-Type|terminated early/i.test(err.message))
    return new StoaError('bad_request', 'the multipart body is malformed');
  if (err?.statusCode && err.statusCode >= 400 && err.statusCode < 500) return new StoaError('bad_request', 'the request is not valid');
  return new StoaError('internal', 'internal error');
}

/** Sends an RFC 9457 problem+json response. */
export function sendProblem(reply: FastifyReply, req: FastifyRequest, e: unknown): FastifyReply {
  const se = toStoaError(e);
  if (se.code === 'internal') req.log.error({ err: e }, 'unhandled error');
  if (se.code === 'unauthorized') reply.header('WWW-Authenticate', 'Bearer');
  setRetryAfter(reply, se);
  return reply
    .code(se.status)
    .type('application/problem+json')
    .send(toProblem(se, req.url.split('?')[0]));
}

/** A throttled client learns when to try again (`Retry-After`, seconds), at every door. */
export function setRetryAfter(reply: FastifyReply, se: StoaError): void {
  const retryAfter = se.details?.retryAfter;
  if (se.code === 'rate_limited' && typeof retryAfter === 'number') reply.header('Retry-After', String(retryAfter));
}
