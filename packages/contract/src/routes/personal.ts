import { z } from 'zod';
import { inputMax } from '../limits.js';
import { defineRoute, projectParam } from '../route.js';

const kind = z.enum(['file', 'folder', 'page']).describe('"file", "folder" (a folder of the files) or "page" (a wiki page)');
const item = {
  project: projectParam,
  kind,
  path: z.string().max(inputMax.path).min(1).describe("The file's or folder's path from the storage root, or the wiki page's path"),
};

export const PersonalItemSchema = z.object({
  kind: z.enum(['file', 'folder', 'page']),
  path: z.string().describe('Where the item is now (a starred file that was moved is listed at its new path)'),
  name: z.string().describe("The file's or folder's name, or the page's title"),
  at: z.string().describe('When it was starred (favourites) or last opened (recent), ISO-8601 UTC'),
});

/**
 * A person's own lists in a project: starred files, folders and wiki pages, and what they opened lately. Only
 * what the person may still read is listed; an item deleted since is left out.
 */
export const personalRoutes = {
  favourites: defineRoute({
    id: 'favourites.list',
    method: 'GET',
    path: '/projects/{project}/favourites',
    summary: 'Your starred files, folders and wiki pages in this project, newest first',
    input: z.object({ project: projectParam }),
    output: z.array(PersonalItemSchema),
  }),
  star: defineRoute({
    id: 'favourites.add',
    method: 'PUT',
    path: '/projects/{project}/favourites',
    summary: 'Star a file, folder or wiki page (for you only); starring it again changes nothing',
    input: z.object(item),
    output: PersonalItemSchema,
  }),
  unstar: defineRoute({
    id: 'favourites.remove',
    method: 'DELETE',
    path: '/projects/{project}/favourites',
    summary: 'Remove a star (nothing happens when there is none)',
    input: z.object(item),
    output: z.object({ ok: z.literal(true) }),
  }),
  recent: defineRoute({
    id: 'recent.list',
    method: 'GET',
    path: '/projects/{project}/recent',
    summary: 'The files and wiki pages you opened lately in this project, the latest first (at most 50)',
    input: z.object({ project: projectParam, limit: z.coerce.number().int().min(1).max(50).optional().describe('At most this many (default 20)') }),
    output: z.array(PersonalItemSchema),
  }),
  opened: defineRoute({
    id: 'recent.record',
    method: 'POST',
    path: '/projects/{project}/recent',
    summary: 'Note that you opened a file or wiki page (the web UI calls it when it shows one)',
    input: z.object({ ...item, kind: z.enum(['file', 'page']).describe('"file" or "page"') }),
    output: PersonalItemSchema,
  }),
};
