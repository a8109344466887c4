import type { RouteDef } from '@stoa/contract';

/**
 * The methods the API serves at a concrete URL path, from the route table: a request with another method is
 * answered 405 with `Allow`, not 404 (the path exists). HEAD comes with GET, as the server answers it.
 *
 * @example
 * const allowed = allowedMethodsFor(routes);
 * allowed('/api/v1/projects/default/files/stat') // ['GET', 'HEAD']
 */
export function allowedMethodsFor(routes: RouteDef[], prefix = '/api/v1'): (urlPath: string) => string[] {
  const table = routes.map((r) => ({
    method: r.method,
    pattern: new RegExp(
      '^' +
        (prefix + r.path)
          .split(/\{[a-zA-Z0-9_]+\}/)
          .map(escapeRegExp)
          .join('[^/]+') +
        '$',
    ),
  }));
  return (urlPath) => {
    const methods = new Set(table.filter((t) => t.pattern.test(urlPath)).map((t) => t.method as string));
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  };
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
