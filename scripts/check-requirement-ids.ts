/**
 * Fails when a comment cites a requirement id (`F10`, `A5`, `§7`) that docs/requirements.md does not define, or
 * still cites them the old way, with the word SPEC before the id. Run by `npm run lint` (as `check:ids`).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SOURCES = ['packages', 'apps', 'e2e', 'bench', 'scripts'];
const SKIP = new Set(['node_modules', 'dist', '.tmp', 'generated', 'openapi']);
const ID = /(?<![\w§-])(?:[FAXRMWB]\d{1,2}|§\d{1,2})(?![\w-])/g;

/** The ids docs/requirements.md defines: `**F10**` entries and `## §7` headings. */
export function definedIds(markdown: string): Set<string> {
  const ids = new Set<string>();
  for (const m of markdown.matchAll(/\*\*([FAXRMWB]\d{1,2})\*\*/g)) ids.add(m[1]!);
  for (const m of markdown.matchAll(/^##\s+(§\d{1,2})\b/gm)) ids.add(m[1]!);
  return ids;
}

/** The comment text of a TypeScript source: line comments and block comments. */
export function commentsOf(source: string): string[] {
  return [...source.matchAll(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g)].map((m) => m[0]);
}

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* sourceFiles(p);
    else if (/\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts')) yield p;
  }
}

const defined = definedIds(readFileSync(join(ROOT, 'docs/requirements.md'), 'utf8'));
const problems: string[] = [];
for (const top of SOURCES) {
  for (const file of sourceFiles(join(ROOT, top))) {
    for (const comment of commentsOf(readFileSync(file, 'utf8'))) {
      if (/\bSPEC\s+(?:[FAXRMWB]\d|§)/.test(comment)) problems.push(`${relative(ROOT, file)}: cites "SPEC …"; cite the bare id`);
      for (const m of comment.matchAll(ID)) if (!defined.has(m[0])) problems.push(`${relative(ROOT, file)}: ${m[0]} is not defined in docs/requirements.md`);
    }
  }
}
if (problems.length > 0) {
  console.error([...new Set(problems)].join('\n'));
  process.exit(1);
}
console.log(`requirement ids: every cited id is defined (${defined.size} ids)`);
