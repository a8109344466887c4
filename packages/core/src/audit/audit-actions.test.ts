import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { auditActions, installationAuditActions } from '@stoa/contract';

const SRC = fileURLToPath(new URL('..', import.meta.url));

/** Every non-test source file of the core. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

// Issue 29: the audit page showed a raw `folder.create`. Every action the core writes to an audit log must be in
// the contract's list, which the UI's dictionaries are checked against (apps/web/src/i18n/i18n.test.ts).
describe('audit actions', () => {
  it('the core records only actions of the contract’s list', () => {
    const known = new Set<string>([...auditActions, ...installationAuditActions]);
    const found = new Map<string, string>();
    for (const file of sources(SRC)) {
      const text = readFileSync(file, 'utf8');
      if (!/recordAudit|installation_audit|auditAction/.test(text)) continue;
      for (const m of text.matchAll(/\b(?:action|auditAction)\s*:\s*'([a-z_]+\.[a-z_.]+)'/g)) found.set(m[1]!, file.slice(SRC.length));
    }
    // The scan itself works: it sees the actions the audit page always showed.
    expect([...found.keys()]).toEqual(expect.arrayContaining(['file.upload', 'file.move', 'file.delete', 'folder.create', 'project.delete']));
    for (const [action, file] of found) expect(known.has(action), `${action} (${file}) is not in packages/contract/src/audit-actions.ts`).toBe(true);
  });
});
