import { StoaError } from '@stoa/contract';
import { normalizePath } from '../paths.js';
import type { ToolScopes } from './caller.js';

/**
 * A path the model gave, made a path from the storage root inside `folder`. A path that already starts with the
 * caller's own `agents/<ID>/` names that same file (A4, deliberate change: the seed would nest it as
 * `agents/<ID>/agents/<ID>/…`). Path rules (F1) are checked on what the model gave and on the result.
 *
 * @example
 * underFolder('reports/a.md', 'agents/agt_a3B9kLm2', scopes)               // 'agents/agt_a3B9kLm2/reports/a.md'
 * underFolder('agents/agt_a3B9kLm2/reports/a.md', 'agents/agt_a3B9kLm2', s) // the same file
 */
export function underFolder(raw: string, folder: string, scopes: ToolScopes, kind: 'file' | 'folder' = 'file'): string {
  const p = normalizePath(raw, kind);
  const own = scopes.own;
  if (own && (p === own || p.startsWith(own + '/'))) {
    if (kind === 'file' && p === own) throw new StoaError('path_invalid', `"${p}" is your own folder, not a file; give a file path inside it`);
    // Own-prefixed paths are root paths; they stay inside `folder` only when `folder` is the storage root or the own folder.
    if (folder === '' || folder === own) return p;
  }
  if (kind === 'folder' && p === '') return folder;
  return folder === '' ? p : normalizePath(`${folder}/${p}`, kind);
}

/** Candidate root paths for a read, own folder first (A4 `ws_read_file`). */
export function readCandidates(raw: string, scopes: ToolScopes): string[] {
  const out: string[] = [];
  if (scopes.own) {
    try {
      out.push(underFolder(raw, scopes.own, scopes));
    } catch (e) {
      // Too deep once prefixed with the own folder: it can still name a file from the root.
      if (!(e instanceof StoaError) || scopes.read !== '') throw e;
    }
  }
  const root = underFolder(raw, scopes.read, scopes);
  if (!out.includes(root)) out.push(root);
  return out;
}

/** "your folder agents/agt_…/" or "the project storage", for messages. */
export function describeScope(folder: string | null): string {
  if (folder === null) return 'nowhere';
  return folder === '' ? 'the whole project storage' : `your folder ${folder}/`;
}
