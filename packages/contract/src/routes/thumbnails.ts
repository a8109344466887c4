import { z } from 'zod';
import { inputMax } from '../limits.js';
import { defineRoute, projectParam } from '../route.js';

/** Thumbnails of pictures for the files page's grid (issue 31). */
export const thumbnailRoutes = {
  get: defineRoute({
    id: 'files.thumbnail',
    errors: ['preview_unavailable'],
    method: 'GET',
    path: '/projects/{project}/files/thumbnail',
    summary: 'A WebP thumbnail (at most 256 px a side) of a PNG, JPEG, GIF or WebP picture; 415 problem for anything else',
    input: z.object({ project: projectParam, path: z.string().max(inputMax.path).min(1).describe('File path from the storage root') }),
    output: z.unknown(),
    raw: { response: 'image/webp' },
  }),
};
