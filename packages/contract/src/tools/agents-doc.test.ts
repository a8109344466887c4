import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { docsMcpTools } from './docs.js';
import { mcpTools } from './export.js';
import { memoryMcpTools } from './memory.js';
import { wikiMcpTools } from './wiki.js';

// docs/agents.md is what agent builders read: its tool table must name every tool there is, and nothing else
// (issue 28 found it saying create_folder was not an agent tool, after it had become one).
const doc = readFileSync(new URL('../../../../docs/agents.md', import.meta.url), 'utf8');
const limits = new Proxy({}, { get: () => 1000 }) as Parameters<typeof mcpTools>[0];
const tools = [...mcpTools(limits), ...memoryMcpTools(), ...wikiMcpTools(), ...docsMcpTools()];
// The rows of the table whose header starts "| tool".
const lines = doc.split('\n');
const start = lines.findIndex((l) => /^\| tool\s+\|/.test(l));
const end = lines.findIndex((l, i) => i > start && !l.startsWith('|'));
const rows = lines.slice(start + 2, end);
const named = new Set(rows.flatMap((r) => [...r.split('|')[1]!.matchAll(/`([a-z_]+)/g)].map((m) => m[1]!)));

describe('docs/agents.md against the tool table', () => {
  it('the table names every tool, and only tools that exist', () => {
    expect([...named].sort()).toEqual(tools.map((t) => t.name).sort());
  });

  it("a file tool's row lists its arguments, required ones without ?", () => {
    for (const t of mcpTools(limits)) {
      const row = rows.find((r) => r.startsWith(`| \`${t.name}(`))!;
      expect(row, t.name).toBeDefined();
      const schema = t.inputSchema as { properties: Record<string, unknown>; required?: string[] };
      for (const arg of Object.keys(schema.properties)) {
        const optional = !(schema.required ?? []).includes(arg);
        // Optional: `arg?` or `arg=default`; required: `arg` (or `arg[1–20]`) followed by "," or ")".
        const pattern = optional ? new RegExp(`[(,\\s]${arg}(\\?|=)`) : new RegExp(`[(,\\s]${arg}(\\[[^\\]]*\\])?[,)]`);
        expect(row, `${t.name}: ${arg}`).toMatch(pattern);
      }
    }
  });

  it('says nothing about tools that are not there yet', () => {
    expect(doc).not.toMatch(/not (an )?agent tools? yet/);
  });
});
