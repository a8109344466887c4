import type { RouteDef } from './route.js';
import { routeTables } from './routes/all.js';

/** Where each route table is defined and the name it is exported under, for the generated type imports. */
const tableSources: Record<keyof typeof routeTables, { file: string; name: string }> = {
  system: { file: 'system', name: 'systemRoutes' },
  projects: { file: 'projects', name: 'projectRoutes' },
  files: { file: 'files', name: 'filesRoutes' },
  locks: { file: 'locks', name: 'lockRoutes' },
  trash: { file: 'trash', name: 'trashRoutes' },
  agents: { file: 'agents', name: 'agentRoutes' },
  conversations: { file: 'agents', name: 'conversationRoutes' },
  tools: { file: 'agents', name: 'toolRoutes' },
  memory: { file: 'memory', name: 'memoryRoutes' },
  turn: { file: 'memory', name: 'turnRoutes' },
  wiki: { file: 'wiki', name: 'wikiRoutes' },
  search: { file: 'search', name: 'searchRoutes' },
  docs: { file: 'docs', name: 'docsRoutes' },
  admin: { file: 'admin', name: 'adminRoutes' },
  oauth: { file: 'oauth', name: 'oauthRoutes' },
  signIn: { file: 'sign-in', name: 'signInRoutes' },
  personal: { file: 'personal', name: 'personalRoutes' },
  shares: { file: 'shares', name: 'shareRoutes' },
  thumbnails: { file: 'thumbnails', name: 'thumbnailRoutes' },
};

/**
 * The text of `route-index.ts`: every route of the table as a {@link RouteRef} (id, method, path), typed by its
 * definition through type-only imports, so clients address routes by name without loading zod.
 * `npm run gen:routes` writes it; a test fails when the file and the table differ.
 *
 * @example
 * writeFileSync('packages/contract/src/route-index.ts', renderRouteIndex());
 */
export function renderRouteIndex(): string {
  const imports = new Map<string, string[]>();
  for (const { file, name } of Object.values(tableSources)) imports.set(file, [...(imports.get(file) ?? []), name]);
  const lines = [
    '// Generated from the route table by `npm run gen:routes` (packages/contract/src/render-route-index.ts); do not edit.',
    "import type { RouteRef } from './route-ref.js';",
    ...[...imports].map(([file, names]) => `import type { ${names.join(', ')} } from './routes/${file}.js';`),
    '',
    '/**',
    ' * Every route by area and name, for clients that must not load the schemas (the web UI).',
    ' *',
    ' * @example',
    " * const page = await call(routeIndex.wiki.get, { project: 'default', path: 'handbook' });",
    ' */',
    'export const routeIndex = {',
  ];
  for (const [area, table] of Object.entries(routeTables) as [keyof typeof routeTables, Record<string, RouteDef>][]) {
    lines.push(`  ${area}: {`);
    for (const [key, r] of Object.entries(table)) {
      const rawRequest = r.raw?.request ? ', rawRequest: true' : '';
      const type = `RouteRef<(typeof ${tableSources[area].name})[${q(key)}]>`;
      lines.push(`    ${key}: { id: ${q(r.id)}, method: ${q(r.method)}, path: ${q(r.path)}${rawRequest} } as ${type},`);
    }
    lines.push('  },');
  }
  lines.push('};', '');
  return lines.join('\n');
}

const q = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
