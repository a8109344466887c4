import { z } from 'zod';
import type { Limits } from '../limits.js';

/**
 * Input schemas of the agent file tools (A4, X1–X6, B2, B5). They are the one source of truth: the MCP
 * input schemas, the OpenAI/Anthropic exports, the HTTP tool-call route and the core's validation all use
 * them. Field descriptions carry the configured limits, so they are built from `Limits`.
 *
 * @example
 * const s = toolInputSchemas(limits);
 * s.ws_write_file.parse({ path: 'notes.md', content: 'hi' }); // mode defaults to "overwrite"
 */
export function toolInputSchemas(limits: Pick<Limits, 'agentWriteBytes' | 'agentListMax'>): ToolInputSchemas {
  // Building ten zod schemas costs milliseconds; the limits object is parsed once at start-up, so cache per object.
  let s = cache.get(limits);
  if (!s) cache.set(limits, (s = buildSchemas(limits)));
  return s;
}

const cache = new WeakMap<object, ToolInputSchemas>();

function buildSchemas(limits: Pick<Limits, 'agentWriteBytes' | 'agentListMax'>) {
  const expectedVersion = z.number().int().min(0).optional().describe(
    'Optional optimistic-concurrency check: the version you last read or wrote (every answer names the file\'s version). If someone changed the file since, nothing is written and you get "Refused: ... is at version N"; read it again and retry. 0 means "the file must not exist yet". Leave it out to write regardless.',
  );
  const permissions = z.string().regex(/^[0-7]{3,4}$/, 'permissions must be 3 or 4 octal digits, e.g. "644"').optional().describe(
    'Unix-style octal permission string stored with the file, 3 or 4 digits 0-7 (e.g. "644", "600", "0755"). Default "644" for a new file; an existing file keeps its permissions unless you give new ones.',
  );
  const wsPath = (what: string) => z.string().min(1).describe(what);
  const filePath = z.string().min(1).describe(
    'Path of the file, "/"-separated, no leading "/", no "." or ".." segments (e.g. "reports/summary.md"). Resolved exactly like the ws_ tools: reads look in your own folder first, then from the storage root; writes and deletes are relative to where you may write.',
  );
  return {
    ws_list_files: z.object({
      prefix: z.string().optional().describe(
        `Folder to list, relative to what you may read: from the storage root when you read the whole project (e.g. "pricing"), from your own folder when you read only your folder (e.g. "reports"). Empty or absent lists everything you may read. At most ${limits.agentListMax} files per call.`,
      ),
    }),
    ws_read_file: z.object({
      path: wsPath('File to read. Looked up first in your own folder (the path you wrote it under, e.g. "reports/summary.md"), then from the storage root (e.g. "pricing/price-list.md" or another agent\'s "agents/<ID>/out.md").'),
    }),
    ws_write_file: z.object({
      path: wsPath('Where to write, relative to where you may write: your own folder by default (write "reports/summary.md", not "agents/<your ID>/reports/summary.md" — that prefix is accepted and means the same file), or the storage root when you write the whole project. Missing folders appear. Use a text extension (.md, .txt, .csv, .json …): a file with an unknown extension is stored as application/octet-stream and cannot be read back.'),
      content: z.string().describe(`Text to store, UTF-8. At most ${limits.agentWriteBytes} bytes per call.`),
      mode: z.enum(['overwrite', 'append']).default('overwrite').describe('"overwrite" (default): create the file or replace its content. "append": add the text to the end (the file is created if missing); appends are applied on the server one after another, never lost. Add your own newline if you want one.'),
      expected_version: expectedVersion,
    }),
    ws_delete_file: z.object({
      path: wsPath('File to delete, relative to your own folder (e.g. "drafts/old.md"; the "agents/<your ID>/" prefix is accepted and means the same file). Files outside your own folder cannot be deleted.'),
      expected_version: expectedVersion,
    }),
    list_files: z.object({
      prefix: z.string().optional().describe('Optional folder to list (same rules as ws_list_files). Absent: every file you may read.'),
    }),
    read_file: z.object({
      file_path: filePath,
      offset: z.number().int().min(1).optional().describe('First line to return, counting from 1. Absent: line 1.'),
      limit: z.number().int().min(1).optional().describe('Number of lines to return from offset. Absent: to the end of the file (still cut at the character limit).'),
    }),
    create_file: z.object({
      file_path: filePath,
      file_contents: z.string().describe(`Initial content, UTF-8 text, at most ${limits.agentWriteBytes} bytes.`),
      file_description: z.string().max(1000).optional().describe('Optional short note on what the file is for (up to 1000 characters); shown in list_files.'),
      permissions,
      expected_version: expectedVersion,
    }),
    str_replace: z.object({
      file_path: filePath,
      old_str: z.string().min(1).describe('Exact text to replace, including whitespace and line breaks. It must occur exactly once in the file; include a few surrounding lines to make it unique.'),
      new_str: z.string().describe(`Replacement text (may be empty to delete old_str). At most ${limits.agentWriteBytes} bytes.`),
      expected_version: expectedVersion,
    }),
    full_file_rewrite: z.object({
      file_path: filePath,
      file_contents: z.string().describe(`The complete new content, UTF-8 text, at most ${limits.agentWriteBytes} bytes. Replaces everything in the file.`),
      permissions,
      expected_version: expectedVersion,
    }),
    delete_file: z.object({
      file_path: z.string().min(1).describe('File to delete, relative to your own folder (same rules as ws_delete_file).'),
      expected_version: expectedVersion,
    }),
  };
}

export type ToolInputSchemas = ReturnType<typeof buildSchemas>;
export type ToolName = keyof ToolInputSchemas;
export type ToolArgs<N extends ToolName> = z.output<ToolInputSchemas[N]>;

/** Every tool name, in the order tools are listed. */
export const toolNames: ToolName[] = [
  'ws_list_files', 'ws_read_file', 'ws_write_file', 'ws_delete_file',
  'list_files', 'read_file', 'create_file', 'str_replace', 'full_file_rewrite', 'delete_file',
];

/** Tools that change files (they count against the per-conversation write limit). */
export const mutatingTools: ReadonlySet<ToolName> = new Set(['ws_write_file', 'ws_delete_file', 'create_file', 'str_replace', 'full_file_rewrite', 'delete_file']);

export function isToolName(name: string): name is ToolName {
  return (toolNames as string[]).includes(name);
}
