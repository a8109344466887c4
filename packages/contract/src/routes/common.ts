import { z } from 'zod';

export const FileSchema = z.object({
  id: z.string().describe('Stable file ID (survives rename/move)'),
  path: z.string().describe('Path from the storage root, e.g. "reports/2026/summary.md"'),
  name: z.string().describe('Last path segment'),
  size: z.number().int().describe('Size in bytes'),
  type: z.string().describe('MIME type by extension; unknown extensions are application/octet-stream'),
  modified: z.string().describe('Last change, ISO-8601 UTC'),
  created: z.string().describe('Creation, ISO-8601 UTC'),
  createdBy: z.string().describe('"" for people, "agent: <name>" for agents, "agent" when the writer is not an agent of the project'),
  creator: z
    .object({ kind: z.string(), id: z.string().nullable(), label: z.string().nullable(), meta: z.record(z.string(), z.unknown()).nullable() })
    .describe('Who created the file, with process/node/conversation IDs for agent writes'),
  modifiedBy: z.object({ kind: z.string(), id: z.string().nullable(), label: z.string().nullable() }),
  version: z.number().int().describe('Current version number (1 for a new file)'),
  sha256: z.string().describe('SHA-256 of the content, hex'),
  permissions: z.string().describe('Octal permission string, default "644"'),
  metadata: z.record(z.string(), z.string()).nullable().optional().describe('Metadata written with the current version (a JSON object of strings), or null'),
});

export const OkSchema = z.object({ ok: z.literal(true) });
