import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderRouteIndex } from './render-route-index.js';
import { routeIndex } from './route-index.js';
import { routeRequest } from './route-ref.js';
import { allRoutes, routeTables } from './routes/all.js';

describe('the route index clients address routes with', () => {
  it('is generated from the current route table (run `npm run gen:routes` after changing a route)', () => {
    expect(readFileSync(new URL('./route-index.ts', import.meta.url), 'utf8')).toBe(renderRouteIndex());
  });

  it('names every route of the table once, with its method and path', () => {
    const refs = Object.values(routeIndex).flatMap((t) => Object.values(t));
    const defs = Object.values(routeTables).flatMap((t) => Object.values(t));
    expect(refs.map((r) => `${r.method} ${r.path} ${r.id}`).sort()).toEqual(defs.map((r) => `${r.method} ${r.path} ${r.id}`).sort());
    expect(new Set(refs.map((r) => r.id)).size).toBe(refs.length);
    expect(allRoutes.length).toBe(defs.length - Object.keys(routeTables.system).length);
  });
});

describe('routeRequest', () => {
  it('fills path parameters encoded and sends the rest as query for GET and DELETE', () => {
    expect(routeRequest(routeIndex.files.stat, { project: 'a/b c', path: 'x y/ü.md' })).toEqual({
      target: '/projects/a%2Fb%20c/files/stat?path=x+y%2F%C3%BC.md',
      body: undefined,
    });
    expect(routeRequest(routeIndex.wiki.remove, { project: 'p', path: 'a', base: 0 }).target).toBe('/projects/p/wiki/page?path=a&base=0');
  });

  it('sends the rest as a JSON body for POST, PUT and PATCH, and as query for byte-stream uploads', () => {
    expect(routeRequest(routeIndex.files.move, { project: 'p', from: 'a', to: 'b' })).toEqual({
      target: '/projects/p/files/move',
      body: { from: 'a', to: 'b' },
    });
    const upload = Object.values(routeIndex.files).find((r) => r.rawRequest && r.method === 'PUT')!;
    expect(routeRequest(upload, { project: 'p', path: 'a.bin' }).body).toBeUndefined();
  });

  it('leaves out absent optional fields and refuses a missing path parameter', () => {
    expect(routeRequest(routeIndex.files.stat, { project: 'p', path: 'a', version: undefined }).target).toBe('/projects/p/files/stat?path=a');
    expect(() => routeRequest(routeIndex.files.stat, { path: 'a' })).toThrow(/project is required/);
  });
});
