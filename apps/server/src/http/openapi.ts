import { z } from 'zod';
import { errorCodes, pathParams, type RouteDef } from '@stoa/contract';

function schemaOf(t: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  try {
    const s = z.toJSONSchema(t, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
    delete s.$schema;
    return s;
  } catch {
    return {};
  }
}

/**
 * The OpenAPI 3.1 document, generated from the same route table and zod schemas that validate requests.
 *
 * @example
 * const doc = buildOpenApi(allRoutes, { version: '0.1.0' });
 */
export function buildOpenApi(routes: RouteDef[], info: { version: string }): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const inputSchema = schemaOf(r.input, 'input') as { properties?: Record<string, any>; required?: string[] };
    const props = inputSchema.properties ?? {};
    const required = new Set(inputSchema.required ?? []);
    const inPath = new Set(pathParams(r.path));
    const bodyInQuery = r.method === 'GET' || r.method === 'DELETE' || !!r.raw?.request;
    const parameters = Object.entries(props)
      .filter(([name]) => inPath.has(name) || bodyInQuery)
      .map(([name, schema]) => ({ name, in: inPath.has(name) ? 'path' : 'query', required: inPath.has(name) || required.has(name), description: schema.description, schema }));
    const bodyProps = Object.fromEntries(Object.entries(props).filter(([name]) => !inPath.has(name)));
    const op: Record<string, unknown> = {
      operationId: r.id,
      summary: r.summary,
      description: r.description,
      tags: r.tags,
      parameters,
      responses: {
        [String(r.status ?? 200)]: r.raw?.response
          ? { description: r.summary, content: { [r.raw.response.split(' ')[0]!]: { schema: { type: 'string', format: 'binary' } } } }
          : { description: 'OK', content: { 'application/json': { schema: schemaOf(r.output, 'output') } } },
        default: { description: 'Error', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } },
      },
      ...(r.public ? { security: [] } : {}),
    };
    if (r.raw?.request) op.requestBody = { required: true, content: { [r.raw.request]: { schema: { type: 'string', format: 'binary' } } } };
    else if (!bodyInQuery) op.requestBody = { required: true, content: { 'application/json': { schema: { type: 'object', properties: bodyProps, required: [...required].filter((n) => !inPath.has(n)) } } } };
    const p = '/api/v1' + r.path;
    paths[p] = { ...(paths[p] ?? {}), [r.method.toLowerCase()]: op };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Stoa API', version: info.version, description: 'Files, memory, wiki and search shared by people and AI agents. Errors are RFC 9457 problem+json with a stable `code`.' },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        Problem: {
          type: 'object',
          required: ['type', 'title', 'status', 'code', 'detail'],
          properties: {
            type: { type: 'string' }, title: { type: 'string' }, status: { type: 'integer' }, detail: { type: 'string' }, instance: { type: 'string' },
            code: { type: 'string', enum: Object.keys(errorCodes) },
          },
        },
      },
    },
  };
}
