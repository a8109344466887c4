import { z } from 'zod';
import { inputMax, type Limits } from '../limits.js';

/**
 * Input schemas of the agent file tools (A4, X1–X6, B2, B5, B7). They are the one source of truth: the MCP
 * input schemas, the OpenAI/Anthropic exports, the HTTP tool-call route and the core's validation all use them.
 * Every tool and argument name is snake_case, and an object accepts no argument it does not name (the core refuses
 * an unknown one with the nearest valid name). Descriptions are short: the shared rules are said once, in the
 * first tool's description (see descriptions.ts).
 *
 * @example
 * const s = toolInputSchemas(limits);
 * s.ws_write_file.parse({ path: 'notes.md', content: 'hi' }); // mode defaults to "overwrite"
 */
export function toolInputSchemas(limits: Pick<Limits, 'agentWriteBytes' | 'agentListMax'>): ToolInputSchemas {
  // Building the zod schemas costs milliseconds; the limits object is parsed once at start-up, so cache per object.
  let s = cache.get(limits);
  if (!s) cache.set(limits, (s = buildSchemas(limits)));
  return s;
}

const cache = new WeakMap<object, ToolInputSchemas>();

/** Most files one read_files call returns. */
export const READ_FILES_MAX = 20;
/** Most replacements one edit_file call applies. */
const EDITS_MAX = 50;
/** Deepest level a tree call shows. */
export const TREE_DEPTH_MAX = 10;

function buildSchemas(limits: Pick<Limits, 'agentWriteBytes' | 'agentListMax'>) {
  const expectedVersion = z.number().int().min(0).optional().describe('Version you read; refused if changed since. 0: must not exist.');
  const permissions = z
    .string()
    .max(4)
    .regex(/^[0-7]{3,4}$/, 'permissions must be 3 or 4 octal digits, e.g. "644"')
    .optional()
    .describe('Octal, e.g. "644" (default for a new file).');
  const dryRun = z.boolean().optional().describe('true: only return the diff; nothing changes.');
  // The newer tools name arguments their siblings describe already: every description costs each conversation tokens.
  const bare = { path: z.string().max(inputMax.path).min(1), expectedVersion: z.number().int().min(0).optional(), dryRun: z.boolean().optional() };
  const filePath = z.string().max(inputMax.path).min(1).describe('File path, e.g. "reports/a.md".');
  const path = z.string().max(inputMax.path).min(1).describe('File path, e.g. "reports/a.md".');
  const prefix = z.string().max(inputMax.path).optional().describe('Folder to look in; absent = everything you may read.');
  const text = z.string().max(inputMax.text).describe(`UTF-8 text, at most ${limits.agentWriteBytes} bytes.`);
  return {
    ws_list_files: z.strictObject({ prefix }),
    ws_read_file: z.strictObject({ path }),
    ws_write_file: z.strictObject({
      path,
      content: text,
      mode: z.enum(['overwrite', 'append']).default('overwrite').describe('"overwrite" (default) or "append" to the end (never lost; add your own newline).'),
      expected_version: expectedVersion,
    }),
    ws_delete_file: z.strictObject({ path, expected_version: expectedVersion }),
    list_files: z.strictObject({ prefix }),
    read_file: z.strictObject({
      file_path: filePath,
      offset: z.number().int().min(1).optional().describe('First line, from 1.'),
      limit: z.number().int().min(1).optional().describe('Number of lines.'),
    }),
    read_files: z.strictObject({
      file_paths: z.array(z.string().max(inputMax.path).min(1)).min(1).max(READ_FILES_MAX).describe(`1–${READ_FILES_MAX} file paths.`),
    }),
    create_file: z.strictObject({
      file_path: filePath,
      file_contents: text,
      file_description: z.string().max(1000).optional().describe('Short note on what the file is for.'),
      permissions,
      expected_version: expectedVersion,
    }),
    str_replace: z.strictObject({
      file_path: filePath,
      old_str: z.string().max(inputMax.text).min(1).describe('Exact text, whitespace included; must occur exactly once.'),
      new_str: z.string().max(inputMax.text).describe('Replacement (empty deletes old_str).'),
      expected_version: expectedVersion,
      dry_run: dryRun,
    }),
    edit_file: z.strictObject({
      path: bare.path,
      edits: z
        .array(z.strictObject({ old_str: z.string().max(inputMax.text).min(1), new_str: z.string().max(inputMax.text) }))
        .min(1)
        .max(EDITS_MAX)
        .describe('In order; each old_str must occur once.'),
      expected_version: bare.expectedVersion,
      dry_run: bare.dryRun,
    }),
    full_file_rewrite: z.strictObject({ file_path: filePath, file_contents: text, permissions, expected_version: expectedVersion, dry_run: dryRun }),
    delete_file: z.strictObject({ file_path: filePath, expected_version: expectedVersion }),
    create_folder: z.strictObject({ folder_path: z.string().max(inputMax.path).min(1).describe('Folder path, e.g. "reports/2026"; missing parents appear.') }),
    move_file: z.strictObject({
      from_path: z.string().max(inputMax.path).min(1).describe('File or folder to move.'),
      to_path: z.string().max(inputMax.path).min(1).describe('New path; must not exist.'),
      expected_version: expectedVersion,
    }),
    tree: z.strictObject({
      prefix,
      depth: z.number().int().min(1).max(TREE_DEPTH_MAX).optional().describe(`Levels to show, 1–${TREE_DEPTH_MAX} (default 3).`),
    }),
    glob: z.strictObject({
      pattern: z.string().min(1).max(inputMax.pattern).describe('e.g. "**/*.md", "reports/*.csv" (* within a folder, ** across folders).'),
      prefix,
    }),
    list_versions: z.strictObject({ path: bare.path }),
    restore_version: z.strictObject({ path: bare.path, version: z.number().int().min(1), expected_version: bare.expectedVersion }),
    file_changes: z.strictObject({
      cursor: z
        .string()
        .max(inputMax.id)
        .regex(/^[A-Za-z0-9_-]{22}$/, 'cursor must be one a previous call returned')
        .optional()
        .describe('From the previous answer; absent = from the start.'),
      limit: z.number().int().min(1).max(limits.agentListMax).optional().describe(`At most this many (default and max ${limits.agentListMax}).`),
    }),
  };
}

export type ToolInputSchemas = ReturnType<typeof buildSchemas>;
export type ToolName = keyof ToolInputSchemas;
export type ToolArgs<N extends ToolName> = z.output<ToolInputSchemas[N]>;

/** Every file tool name, in the order tools are listed (the SPEC's ws_* and X1–X6 tools first). */
export const toolNames: ToolName[] = [
  'ws_list_files',
  'ws_read_file',
  'ws_write_file',
  'ws_delete_file',
  'list_files',
  'read_file',
  'create_file',
  'str_replace',
  'full_file_rewrite',
  'delete_file',
  'edit_file',
  'read_files',
  'create_folder',
  'move_file',
  'tree',
  'glob',
  'file_changes',
  'list_versions',
  'restore_version',
];

export function isToolName(name: string): name is ToolName {
  return (toolNames as string[]).includes(name);
}
