import { z } from 'zod';
import { inputMax } from '../limits.js';
import { defineRoute, projectParam } from '../route.js';
import { OkSchema } from './common.js';

/** The longest a share link may stay open: 30 days (a link meant for longer is a member's account). */
export const SHARE_LINK_MAX_SECONDS = 30 * 24 * 3600;

export const ShareLinkSchema = z.object({
  id: z.string(),
  path: z.string().describe('The file it opens, where it is now (the link follows renames and moves)'),
  createdBy: z.string().describe('Name of the person who made it'),
  createdAt: z.string().describe('ISO-8601 UTC'),
  expiresAt: z.string().describe('ISO-8601 UTC'),
});

/**
 * Expiring share links of one file (issue 31): anyone holding the URL downloads the file's current version,
 * without an account, until it expires or is revoked, and only while its maker may still read the file.
 */
export const shareRoutes = {
  create: defineRoute({
    id: 'files.shareLinks.create',
    method: 'POST',
    path: '/projects/{project}/share-links',
    summary: 'Make an expiring link that downloads a file without signing in; the URL is shown once',
    status: 201,
    errors: ['forbidden'],
    input: z.object({
      project: projectParam,
      path: z.string().max(inputMax.path).min(1).describe('File path from the storage root'),
      expiresIn: z.coerce.number().int().min(60).max(SHARE_LINK_MAX_SECONDS).describe('Seconds the link stays open (60 to 30 days)'),
    }),
    output: ShareLinkSchema.extend({ url: z.string().describe('The link (below this server unless STOA_PUBLIC_URL is set): anyone with it can download') }),
  }),
  list: defineRoute({
    id: 'files.shareLinks.list',
    method: 'GET',
    path: '/projects/{project}/share-links',
    summary: "A file's share links that still open (not expired, not revoked); their URLs are not shown again",
    input: z.object({ project: projectParam, path: z.string().max(inputMax.path).min(1).describe('File path from the storage root') }),
    output: z.array(ShareLinkSchema),
  }),
  revoke: defineRoute({
    id: 'files.shareLinks.revoke',
    method: 'DELETE',
    path: '/projects/{project}/share-links/{id}',
    summary: 'Revoke a share link: it stops opening at once',
    input: z.object({ project: projectParam, id: z.string().max(inputMax.id).min(1).describe('The link ID from the list') }),
    output: OkSchema,
  }),
  open: defineRoute({
    id: 'files.shareLinks.open',
    errors: ['unauthorized'],
    method: 'GET',
    path: '/share-links/{token}',
    summary: 'The file behind a share link, as a download (no token: the link is the credential); a page saying why when it no longer opens',
    public: true,
    input: z.object({ token: z.string().max(inputMax.id).min(1).describe('The secret part of the link') }),
    output: z.unknown(),
    raw: { response: 'application/octet-stream' },
  }),
};
