import { z } from 'zod';
import { inputMax, SEARCH_OFFSET_MAX } from '../limits.js';
import { defineRoute, projectParam } from '../route.js';

const path = z
  .string()
  .max(inputMax.path)
  .min(1)
  .describe('Page path: lowercase segments of letters (any script), digits, "-" and "_", e.g. "handbook/refunds"; upper case is folded');
const base = z.coerce
  .number()
  .int()
  .min(0)
  .optional()
  .describe('Optimistic concurrency: refuse with version_conflict (409, currentVersion in the body) unless the page is at this version; 0 = must not exist');
const version = z.coerce.number().int().min(1);

export const WikiPageSummarySchema = z.object({
  path: z.string().describe('Page path, e.g. "handbook/refunds"'),
  title: z.string().describe('Title (derived from the last path segment when the page has none)'),
  version: z.number().int().describe('Current version, 1 for a new page'),
  channel: z.string().nullable().describe('Conversation ID when only that channel sees the page; null for a workspace page'),
  updated: z.string().describe('Last save, ISO-8601 UTC'),
  updatedBy: z.string().describe('Who saved last: a person\'s name or "agent: <name>"'),
});

export const WikiPageSchema = WikiPageSummarySchema.extend({
  text: z.string().describe('Markdown text'),
  created: z.string(),
  createdBy: z.string(),
  linkedHere: z.array(z.object({ path: z.string(), title: z.string() })).describe('Pages you can see that link here ("Linked here")'),
  links: z
    .array(
      z.object({
        path: z.string(),
        label: z.string().nullable(),
        heading: z.string().nullable(),
        missing: z.boolean().describe('No page you can see is at this path'),
      }),
    )
    .describe("The page's [[links]] in order of appearance"),
  unlinkedMentions: z
    .array(z.object({ path: z.string(), title: z.string(), snippet: z.string() }))
    .describe("Pages you can see that mention this page's title without linking to it"),
});

export const WikiSearchHitSchema = z.object({
  path: z.string(),
  title: z.string(),
  snippet: z.string().describe('Text around the matched words'),
  highlights: z.array(z.tuple([z.number(), z.number()])).describe('[start, end) offsets of matched words in snippet'),
  score: z.number().describe('Higher is better'),
  updated: z.string(),
});

export const WikiVersionSchema = z.object({
  version: z.number().int(),
  title: z.string(),
  path: z.string(),
  action: z.enum(['create', 'edit', 'rename']),
  author: z.string().describe('A person\'s name or "agent: <name>"'),
  authorDetail: z.object({ kind: z.string(), id: z.string().nullable(), label: z.string().nullable() }),
  time: z.string().describe('When it was saved, ISO-8601 UTC'),
  size: z.number().int().describe('Text size in bytes'),
  current: z.boolean(),
});

export const WikiMoveSchema = z.object({
  dryRun: z.boolean(),
  moved: z.array(z.object({ from: z.string(), to: z.string() })).describe('Pages that move (or would): the page, then nested pages'),
  hidden: z.number().int().describe('Nested pages you cannot see that move along'),
  brokenLinks: z
    .array(z.object({ page: z.string(), title: z.string(), target: z.string() }))
    .describe('Links to old paths, which open a missing page after the move'),
});

const channel = z
  .string()
  .max(inputMax.name)
  .nullable()
  .optional()
  .describe('Channel (conversation ID or channel name) the page belongs to; null = the whole workspace; absent keeps it as it is (a new page: workspace)');

export const wikiRoutes = {
  list: defineRoute({
    id: 'wiki.list',
    method: 'GET',
    path: '/projects/{project}/wiki/pages',
    summary: 'Pages you can see, ordered by path (the tree)',
    input: z.object({ project: projectParam, prefix: z.string().max(inputMax.path).optional().describe('Only this page and the pages below it') }),
    output: z.array(WikiPageSummarySchema),
  }),
  get: defineRoute({
    id: 'wiki.get',
    method: 'GET',
    path: '/projects/{project}/wiki/page',
    summary: 'One page with its links, "Linked here" and unlinked mentions',
    input: z.object({ project: projectParam, path }),
    output: WikiPageSchema,
  }),
  put: defineRoute({
    id: 'wiki.put',
    errors: ['already_exists', 'too_large'],
    method: 'PUT',
    path: '/projects/{project}/wiki/page',
    summary: 'Create a page or save a new version',
    description:
      'With base, a save on an outdated version fails with 409 version_conflict and currentVersion in the body. Saving identical content makes no new version (changed: false).',
    input: z.object({
      project: projectParam,
      path,
      text: z.string().max(inputMax.text).describe('Markdown text'),
      title: z.string().max(inputMax.title).optional().describe('Title; absent keeps the current one; empty = derived from the path'),
      base,
      channel,
    }),
    output: WikiPageSummarySchema.extend({ created: z.boolean(), changed: z.boolean() }),
  }),
  rename: defineRoute({
    id: 'wiki.rename',
    method: 'POST',
    path: '/projects/{project}/wiki/rename',
    summary: "Change a page's title (saved as a new version)",
    input: z.object({ project: projectParam, path, title: z.string().max(inputMax.title).describe('New title; empty = derived from the path'), base }),
    output: WikiPageSummarySchema,
  }),
  move: defineRoute({
    id: 'wiki.move',
    errors: ['already_exists'],
    method: 'POST',
    path: '/projects/{project}/wiki/move',
    summary: 'Move a page and its nested pages to a new path (links are not rewritten)',
    input: z.object({
      project: projectParam,
      from: path,
      to: path,
      dryRun: z.boolean().optional().describe('Only report what would move and which links would break'),
    }),
    output: WikiMoveSchema,
  }),
  remove: defineRoute({
    id: 'wiki.delete',
    method: 'DELETE',
    path: '/projects/{project}/wiki/page',
    summary: 'Delete a page and its history (nested pages remain)',
    input: z.object({ project: projectParam, path, base }),
    output: WikiPageSummarySchema,
  }),
  history: defineRoute({
    id: 'wiki.history',
    method: 'GET',
    path: '/projects/{project}/wiki/history',
    summary: 'Versions of a page, newest first, with author and time',
    input: z.object({ project: projectParam, path }),
    output: z.array(WikiVersionSchema),
  }),
  version: defineRoute({
    id: 'wiki.version',
    method: 'GET',
    path: '/projects/{project}/wiki/version',
    summary: 'One version of a page',
    input: z.object({ project: projectParam, path, version }),
    output: WikiVersionSchema.extend({ text: z.string() }),
  }),
  diff: defineRoute({
    id: 'wiki.diff',
    method: 'GET',
    path: '/projects/{project}/wiki/diff',
    summary: 'Line diff between two versions of a page',
    input: z.object({
      project: projectParam,
      path,
      from: version.describe('Older version'),
      to: version.optional().describe('Newer version (default: current)'),
    }),
    output: z.object({
      path: z.string(),
      from: z.number().int(),
      to: z.number().int(),
      titleBefore: z.string(),
      titleAfter: z.string(),
      lines: z.array(z.object({ op: z.enum([' ', '-', '+']), text: z.string() })),
      text: z.string().describe('Unified rendering: " " kept, "-" removed, "+" added, "@@" between hunks'),
      added: z.number().int(),
      removed: z.number().int(),
    }),
  }),
  search: defineRoute({
    id: 'wiki.search',
    method: 'GET',
    path: '/projects/{project}/wiki/search',
    summary: 'Search the pages you can see, best first, with snippets',
    input: z.object({
      project: projectParam,
      q: z.string().max(inputMax.query).describe('Words to find, any language'),
      prefix: z.string().max(inputMax.path).optional().describe('Only pages at or below this path'),
      limit: z.coerce.number().int().min(1).max(100).optional(),
      offset: z.coerce.number().int().min(0).max(SEARCH_OFFSET_MAX).optional(),
    }),
    output: z.array(WikiSearchHitSchema),
  }),
  import: defineRoute({
    id: 'wiki.import',
    method: 'POST',
    path: '/projects/{project}/wiki/import',
    summary: 'Turn markdown files into pages (paths from file paths, titles from the first # heading)',
    input: z.object({
      project: projectParam,
      files: z
        .array(
          z.object({ file: z.string().max(inputMax.path).min(1).describe('Path of the .md file in the imported folder'), text: z.string().max(inputMax.text) }),
        )
        .max(5000),
      prefix: z.string().max(inputMax.path).optional().describe('Put the pages below this path'),
      channel: z.string().max(inputMax.name).optional().describe('Make every imported page belong to this channel'),
    }),
    output: z.object({
      imported: z.array(z.object({ file: z.string(), path: z.string(), title: z.string(), version: z.number().int(), created: z.boolean() })),
      skipped: z.array(z.object({ file: z.string(), code: z.string(), reason: z.string() })),
    }),
  }),
};
