import type { Insertable } from 'kysely';
import type { ToolCallsTable } from '@stoa/db';
import type { Ctx, Q } from '../platform.js';
import { hotQuery } from '../hot-query.js';
import type { Actor } from '../actors.js';
import { assertCan } from '../policies/can.js';
import { findVisibleConversation } from './conversations.js';
import { indexableText } from '../text-rules.js';

export interface TraceEntry {
  id: string;
  at: string;
  agentId: string | null;
  agentName: string | null;
  tool: string;
  args: string;
  result: string;
  refused: boolean;
  durationMs: number;
  path: string | null;
  version: number | null;
  /** The volume beyond the project (R1) the call worked in — the agent's own files, a knowledge base… — or null. */
  volume?: string | null;
  /**
   * The agent's file settings when it made the call (A1; seed 000 shows "Project files" with the write and read
   * scopes in the trace): `volume` is its access in a volume beyond projects. Null for a person's runtime, and for
   * calls recorded before these were kept.
   */
  fileSettings?: TraceFileSettings | null;
}

export interface TraceFileSettings {
  files: 'on' | 'off';
  write: 'own' | 'project';
  read: 'project' | 'own';
  volume?: 'rw' | 'ro' | 'none';
}

/** What the trace keeps of an actor's file settings: an agent's switch and scopes, nothing for a person. */
function fileSettingsOf(a: Actor): TraceFileSettings | null {
  if (a.kind !== 'agent') return null;
  const s = a.access;
  return { files: s.enabled ? 'on' : 'off', write: s.write, read: s.read, ...(s.volume ? { volume: s.volume } : {}) };
}

function parseFileSettings(json: string | null): TraceFileSettings | null {
  if (!json) return null;
  try {
    return JSON.parse(json) as TraceFileSettings;
  } catch {
    return null;
  }
}

/** Arguments in short for the trace: long strings are cut and say how long they were. */
export function shortArgs(args: unknown, max = 120): string {
  const cut = (v: unknown): unknown => {
    if (typeof v === 'string') return v.length > max ? `${v.slice(0, max)}…(${v.length} chars)` : v;
    if (Array.isArray(v)) return v.slice(0, 20).map(cut);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cut(x)]));
    return v;
  };
  return JSON.stringify(cut(args) ?? {});
}

/** The answer in short for the trace. */
export function shortResult(text: string, max = 300): string {
  const clean = indexableText(text);
  return clean.length > max ? `${clean.slice(0, max)}…(${clean.length} chars)` : clean;
}

/**
 * Records one tool call in its conversation's trace (F15: agent actions are visible here, not in the audit
 * log). Calls made outside a conversation are kept with no conversation.
 *
 * @example
 * await recordToolCall(ctx, { id: 'call_…', tool: 'ws_write_file', args: '{"path":"a.md"}', result: 'Wrote …', refused: false, durationMs: 3.2 });
 * await recordToolCall(ctx, entry, trx); // inside the change's own transaction (ToolEnv.traceInTx)
 */
export async function recordToolCall(
  ctx: Ctx,
  e: Omit<TraceEntry, 'at' | 'agentId' | 'agentName' | 'fileSettings'> & { conversationId: string | null },
  db: Q = ctx.platform.db.kysely,
): Promise<void> {
  const a = ctx.actor;
  const settings = fileSettingsOf(a);
  await insertCall(db, {
    id: e.id,
    project_id: ctx.project.id,
    conversation_id: e.conversationId || null,
    agent_id: a.kind === 'agent' ? a.agentId : null,
    agent_name: a.kind === 'agent' ? a.name : `runtime via ${a.name}`,
    tool: e.tool,
    args: e.args,
    result: e.result,
    refused: e.refused ? 1 : 0,
    duration_ms: e.durationMs,
    path: e.path ?? null,
    version: e.version ?? null,
    at: ctx.platform.clock().toISOString(),
    file_settings: settings ? JSON.stringify(settings) : null,
  });
}

/** Every tool call writes one: built once (issue 30). */
const insertCall = hotQuery((db, a: Insertable<ToolCallsTable> & Record<string, unknown>) =>
  db.insertInto('tool_calls').values({
    id: a.id,
    project_id: a.project_id,
    conversation_id: a.conversation_id,
    agent_id: a.agent_id,
    agent_name: a.agent_name,
    tool: a.tool,
    args: a.args,
    result: a.result,
    refused: a.refused,
    duration_ms: a.duration_ms,
    path: a.path,
    version: a.version,
    at: a.at,
    file_settings: a.file_settings,
  }),
);

/**
 * The tool calls of a conversation, oldest first, for its participants and the project's admins.
 *
 * @example
 * const { entries } = await listTrace(ctx, 'conv_…');
 */
export async function listTrace(
  ctx: Ctx,
  ref: string,
  input: { limit?: number; after?: string } = {},
): Promise<{ entries: TraceEntry[]; nextCursor: string | null }> {
  assertCan(ctx.actor, 'project.read', { kind: 'project' });
  // Participants and admins only; to anyone else the conversation does not exist (issue 27).
  const conv = await findVisibleConversation(ctx, ref);
  const db = ctx.platform.db.kysely;
  const limit = Math.min(Math.max(input.limit ?? 1000, 1), 10000);
  // The conversation's calls in the project and in the project's shared volumes (its agents' own files, its
  // knowledge bases and skill packages, R1); never those in a person's private volume.
  let q = db
    .selectFrom('tool_calls')
    .selectAll()
    .where('conversation_id', '=', conv.id)
    .where((eb) =>
      eb.or([
        eb('project_id', '=', ctx.project.id),
        eb(
          'project_id',
          'in',
          eb.selectFrom('projects').select('id').where('parent_project_id', '=', ctx.project.id).where('catalog', 'in', ['xperts', 'knowledges', 'skills']),
        ),
      ]),
    );
  if (input.after) {
    const after = await db.selectFrom('tool_calls').select('seq').where('id', '=', input.after).executeTakeFirst();
    if (after) q = q.where('seq', '>', after.seq);
  }
  const rows = await q
    .orderBy('seq')
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  return {
    entries: page.map((r) => ({
      id: r.id,
      at: r.at,
      agentId: r.agent_id,
      agentName: r.agent_name,
      tool: r.tool,
      args: r.args,
      result: r.result,
      refused: Number(r.refused) === 1,
      durationMs: Number(r.duration_ms),
      path: r.path,
      version: r.version === null ? null : Number(r.version),
      volume: r.project_id === ctx.project.id ? null : r.project_id,
      fileSettings: parseFileSettings(r.file_settings ?? null),
    })),
    nextCursor: rows.length > limit ? page[page.length - 1]!.id : null,
  };
}
