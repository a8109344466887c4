import { isStoaError } from '@stoa/contract';
import type { Ctx } from '../platform.js';
import { assertCan } from '../policies/can.js';
import { putPage } from './put-page.js';
import { normalizeWikiPath, slugifyWikiPath } from './wiki-paths.js';

export interface ImportFile {
  /** Path of the markdown file inside the imported folder, e.g. 'Handbook/Refund Policy.md'. */
  file: string;
  text: string;
}

export interface ImportResult {
  imported: Array<{ file: string; path: string; title: string; version: number; created: boolean }>;
  skipped: Array<{ file: string; code: string; reason: string }>;
}

/**
 * The page path of an imported file: `.md`/`.markdown` dropped, lower case, characters a page path does not
 * allow turned into `-` (`Handbook/Refund Policy.md` → `handbook/refund-policy`), under `prefix` if given.
 *
 * @example
 * importedPath('Handbook/Refund Policy.md') // 'handbook/refund-policy'
 */
export function importedPath(file: string, prefix?: string): string | null {
  const bare = file.replace(/\\/g, '/').replace(/\.(md|markdown)$/i, '');
  const p = slugifyWikiPath(prefix ? `${prefix}/${bare}` : bare);
  return p;
}

/**
 * The title of an imported page: its first `# heading`, if any.
 *
 * @example
 * importedTitle('intro\n# Refunds\n…') // 'Refunds'
 */
export function importedTitle(text: string): string | undefined {
  // Read line by line, not with one pattern: a heading of thousands of spaces made the old regex backtrack for
  // ~50 s (issue 27).
  for (const line of text.split(/\r\n|[\n\r\u2028\u2029]/)) {
    if (line.length < 3 || line[0] !== '#' || (line[1] !== ' ' && line[1] !== '\t')) continue;
    const body = line.slice(1).trim();
    let end = body.length;
    while (end > 1 && body[end - 1] === '#') end--;
    return body.slice(0, end).trim() || undefined;
  }
  return undefined;
}

/**
 * Turns a folder of markdown files into pages (`stoa wiki import DIR`): each file becomes the page at its path
 * (see `importedPath`) with the title of its first `# heading`; an existing page gets a new version. Each file
 * is saved on its own, so one bad file is reported in `skipped` and the rest are still imported.
 *
 * @example
 * await importPages(ctx, { files: [{ file: 'handbook/onboarding.md', text: '# Onboarding\n…' }] })
 * // { imported: [{ file: 'handbook/onboarding.md', path: 'handbook/onboarding', title: 'Onboarding', version: 1, created: true }], skipped: [] }
 */
export async function importPages(ctx: Ctx, input: { files: ImportFile[]; prefix?: string; channel?: string }): Promise<ImportResult> {
  assertCan(ctx.actor, 'wiki.write', { kind: 'project' });
  const prefix = input.prefix && input.prefix.trim() !== '' ? normalizeWikiPath(input.prefix) : undefined;
  const out: ImportResult = { imported: [], skipped: [] };
  const seen = new Map<string, string>();
  const files = [...input.files].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  for (const f of files) {
    const path = importedPath(f.file, prefix);
    if (!path) {
      out.skipped.push({ file: f.file, code: 'path_invalid', reason: 'the file name gives no usable page path' });
      continue;
    }
    const twin = seen.get(path);
    if (twin) {
      out.skipped.push({ file: f.file, code: 'already_exists', reason: `"${twin}" already became page "${path}"` });
      continue;
    }
    seen.set(path, f.file);
    try {
      const r = await putPage(ctx, { path, text: f.text, title: importedTitle(f.text) ?? '', channel: input.channel });
      out.imported.push({ file: f.file, path: r.path, title: r.title, version: r.version, created: r.created });
    } catch (e) {
      if (!isStoaError(e)) throw e;
      out.skipped.push({ file: f.file, code: e.code, reason: e.message });
    }
  }
  return out;
}
