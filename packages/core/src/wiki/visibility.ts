import { StoaError } from '@stoa/contract';
import { findConversation, visibleConversationIds } from '../conversations/conversations.js';
import type { Ctx, Q } from '../platform.js';
import { assertCan } from '../policies/can.js';
import type { PageRow } from './schema.js';

/** Search-index visibility of a workspace page (every member and every agent of the project). */
export const WORKSPACE_VISIBILITY = 'project';

/** Search-index visibility of a page that belongs to one channel. */
export function channelVisibility(channelId: string): string {
  return `channel:${channelId}`;
}

/** Visibility value of a page row. */
export function pageVisibility(row: Pick<PageRow, 'channel_id'>): string {
  return row.channel_id ? channelVisibility(row.channel_id) : WORKSPACE_VISIBILITY;
}

/**
 * What the actor may read of the wiki, resolved once per operation: a predicate for page rows and the list of
 * search-index visibility values.
 *
 * @example
 * const v = await wikiViewer(ctx);
 * v.sees(row) // false for a page of a channel the caller is not in
 */
export async function wikiViewer(
  ctx: Ctx,
  q: Q = ctx.platform.db.kysely,
): Promise<{ sees: (row: Pick<PageRow, 'channel_id'>) => boolean; visibility: string[]; channels: Set<string> }> {
  assertCan(ctx.actor, 'wiki.read', { kind: 'project' });
  const channels = new Set(await visibleConversationIds(ctx, q));
  return {
    channels,
    sees: (row) => row.channel_id === null || channels.has(row.channel_id),
    visibility: [WORKSPACE_VISIBILITY, ...[...channels].map(channelVisibility)],
  };
}

/**
 * Resolves the `--channel C` of a save: a conversation of the project (by ID or channel name) that the caller
 * can see; otherwise not_found, so a non-participant cannot probe which channels exist.
 *
 * @example
 * await resolveChannel(ctx, 'support') // 'conv_…'
 */
export async function resolveChannel(ctx: Ctx, ref: string): Promise<string> {
  let id: string;
  try {
    id = (await findConversation(ctx, ref)).id;
  } catch {
    throw new StoaError('not_found', `channel "${ref}" does not exist or you are not in it`);
  }
  const mine = await visibleConversationIds(ctx);
  if (!mine.includes(id)) throw new StoaError('not_found', `channel "${ref}" does not exist or you are not in it`);
  return id;
}
