import { filesRoutes, StoaError } from '@stoa/contract';
import { callOperation, type DoorCall, type FileInfo } from '@stoa/core';
import type { FastifyRequest } from 'fastify';
import { hasWriteConditions, pinnedVersion } from '../../http/preconditions.js';

/**
 * The input of a file write (PUT of content, DELETE) with its RFC 9110 conditions applied: If-Match, If-None-Match
 * and If-Unmodified-Since are checked against the file now (precondition_failed) and the version they saw is
 * pinned as `expectedVersion`, which the core checks in the write's transaction. `pinned` says whether a
 * version conflict is the client's failed precondition. An explicit `expectedVersion` wins.
 */
export async function conditionalWrite(
  call: DoorCall,
  req: FastifyRequest,
  input: Record<string, unknown>,
): Promise<{ input: Record<string, unknown>; pinned: boolean }> {
  if (input.expectedVersion !== undefined) return { input, pinned: false };
  const ifMatch = req.headers['if-match'];
  // Earlier clients sent the version number as If-Match ("3"); a content tag is 32 hex digits, so the two never meet.
  if (typeof ifMatch === 'string' && /^"?\d{1,15}"?$/.test(ifMatch.trim()))
    return { input: { ...input, expectedVersion: ifMatch.replace(/"/g, '').trim() }, pinned: false };
  if (!hasWriteConditions(req.headers)) return { input, pinned: false };
  let current: FileInfo | null = null;
  try {
    current = (await callOperation(call, filesRoutes.stat.id, { project: input.project, path: input.path })) as FileInfo;
  } catch (e) {
    if (!(e instanceof StoaError && e.code === 'not_found')) throw e;
  }
  return { input: { ...input, expectedVersion: pinnedVersion(req.method, req.headers, current) }, pinned: true };
}
