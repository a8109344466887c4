import type { Limits } from '@stoa/contract';
import { assertWriteSize } from '../operations/agent-gate.js';
import type { Attribution } from '../actors.js';
import type { Ctx, Q } from '../platform.js';
import type { ToolScopes } from './caller.js';
import type { WindowKey } from './write-window.js';

import type { ToolAnswer } from './area-tool.js';

export type { ToolAnswer } from './area-tool.js';

/** What one file tool call runs with; built by the file tools' table from the context and the call. */
export interface ToolEnv {
  ctx: Ctx;
  scopes: ToolScopes;
  limits: Limits;
  callId: string;
  attribution: Attribution;
  window: WindowKey;
  /** Records this call's trace entry in the change's transaction (see ToolCall.traceInTx); absent: the runner does. */
  traceInTx?: (trx: Q, answer: ToolAnswer) => Promise<void>;
}

/**
 * A write's `trace` option (agentWrite): the call's trace entry, carrying the answer the tool will give, written
 * last in the write's own transaction, so the change and its entry commit together (see ToolCall.traceInTx).
 *
 * @example
 * const answer = (r: AgentWriteResult) => ({ text: `Wrote ${path}`, path, version: r.file.version });
 * return answer(await agentWrite(env.ctx, { …, trace: traceWith(env, answer) }));
 */
export function traceWith<R>(env: ToolEnv, answer: (r: R) => ToolAnswer): ((trx: Q, r: R) => Promise<void>) | undefined {
  const t = env.traceInTx;
  return t ? (trx, r) => t(trx, answer(r)) : undefined;
}

/** "change 3 of 20 in this conversation" — so the model knows its budget. */
export function budget(c: { used: number; max: number }): string {
  return `change ${c.used} of ${c.max} in this conversation`;
}

/** Refuses content over STOA_AGENT_WRITE_BYTES before anything is stored or counted. */
export function checkWriteSize(env: ToolEnv, text: string, what = 'content'): void {
  assertWriteSize(env.limits.agentWriteBytes, Buffer.byteLength(text, 'utf8'), what);
}
