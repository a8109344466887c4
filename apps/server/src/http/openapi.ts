import { z } from 'zod';
import { allRoutes, errorCodes, pathParams, routeErrors, systemRoutes, type ErrorCode, type RouteDef } from '@stoa/contract';

type Json = Record<string, unknown>;

function schemaOf(t: z.ZodType, io: 'input' | 'output'): Json {
  try {
    const s = z.toJSONSchema(t, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
    delete s.$schema;
    return s;
  } catch {
    return {};
  }
}

const binary = { type: 'string', format: 'binary' };
const header = (description: string, schema: Json = { type: 'string' }) => ({ description, schema });

/** Request headers every token route reads to attribute an agent's write (F6). */
const attributionHeaders = [
  { name: 'X-Stoa-Conversation', in: 'header', required: false, description: 'Conversation the agent acts in', schema: { type: 'string' } },
  { name: 'X-Stoa-Process', in: 'header', required: false, description: 'Process ID of the agent runtime', schema: { type: 'string' } },
  { name: 'X-Stoa-Node', in: 'header', required: false, description: 'Node (host) of the agent runtime', schema: { type: 'string' } },
];

/** Headers of a file download: the body is the file, described by its metadata. */
const downloadHeaders = {
  ETag: header('Strong validator: the first 128 bits of the SHA-256 of the content, hex, quoted; the same at the WebDAV door'),
  'Last-Modified': header('When the current version was written (absent for an older version asked for by number)'),
  'Accept-Ranges': header('Always "bytes"'),
  'Content-Disposition': header('Always an attachment, with the file name'),
  'Content-Length': header('Bytes in this response', { type: 'integer' }),
  'X-Stoa-Version': header('Version number of the file served', { type: 'integer' }),
  'X-Content-Type-Options': header('Always "nosniff"'),
  'Content-Security-Policy': header('Sandboxed: the content never runs as a page of this site'),
  'Cache-Control': header('"private, no-cache": revalidate with If-None-Match'),
};

/** The success responses of a byte route: the file's own content type, partial content and revalidation. */
function rawResponses(r: RouteDef, status: string): Json {
  if (r.id === 'files.download') {
    return {
      [status]: { description: 'The file, with its own content type', headers: downloadHeaders, content: { '*/*': { schema: binary } } },
      '206': {
        description: 'The byte range asked for with Range',
        headers: { ...downloadHeaders, 'Content-Range': header('e.g. "bytes 0-99/1234"') },
        content: { '*/*': { schema: binary } },
      },
      '304': {
        description: 'Not modified: If-None-Match named the current ETag (weak comparison), or If-Modified-Since is not older than Last-Modified',
        headers: { ETag: downloadHeaders.ETag },
      },
    };
  }
  if (r.id === 'files.preview') {
    const headers = {
      'Content-Disposition': header('inline, with the file name'),
      'X-Content-Type-Options': header('Always "nosniff"'),
      'Content-Security-Policy': header('Sandboxed'),
    };
    return {
      [status]: {
        description: 'Preview content (text as UTF-8 text/plain, images, PDF), or the preview decision as JSON with info=true',
        headers,
        content: {
          'text/plain': { schema: { type: 'string' } },
          'image/*': { schema: binary },
          'application/pdf': { schema: binary },
          'application/json': { schema: { type: 'object' } },
        },
      },
    };
  }
  return { [status]: { description: r.summary, content: { [r.raw!.response!]: { schema: binary } } } };
}

/** Error responses by status, each listing the stable codes it may carry. */
function errorResponses(codes: ErrorCode[], r: RouteDef): Json {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const c of codes) byStatus.set(errorCodes[c].status, [...(byStatus.get(errorCodes[c].status) ?? []), c]);
  const out: Json = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const headers: Json = {};
    if (status === 401) headers['WWW-Authenticate'] = header('"Bearer"');
    if (status === 416 && r.id === 'files.download') headers['Content-Range'] = header('"bytes */<size>"');
    out[String(status)] = {
      description: list.map((c) => `${c}: ${errorCodes[c].title}`).join('; '),
      ...(Object.keys(headers).length ? { headers } : {}),
      content: { 'application/problem+json': { schema: { allOf: [{ $ref: '#/components/schemas/Problem' }, { properties: { code: { enum: list } } }] } } },
    };
  }
  return out;
}

/** JSON success responses. Byte uploads answer 201 when they create the file and 200 when they replace it. */
function jsonResponses(r: RouteDef, status: string, schema: Json): Json {
  const json = { 'application/json': { schema } };
  if (r.id === 'auth.login' || r.id === 'auth.logout') {
    return {
      [status]: { description: 'OK', headers: { 'Set-Cookie': header('The session cookie (HttpOnly, SameSite=Strict); cleared on logout') }, content: json },
    };
  }
  if (r.id !== 'files.upload') return { [status]: { description: r.status === 201 ? 'Created' : 'OK', content: json } };
  return { '200': { description: 'Replaced: a new version of an existing file', content: json }, '201': { description: 'Created: a new file', content: json } };
}

/** Request headers of a route beyond its input fields. */
function headerParameters(r: RouteDef): Json[] {
  const out: Json[] = r.public ? [] : [...attributionHeaders];
  if (r.id === 'files.download') {
    out.push(
      { name: 'Range', in: 'header', required: false, description: 'One byte range, e.g. "bytes=0-99" (answers 206)', schema: { type: 'string' } },
      {
        name: 'If-Range',
        in: 'header',
        required: false,
        description: 'ETag or Last-Modified the range is valid for; any other answers 200 with the whole file',
        schema: { type: 'string' },
      },
      { name: 'If-None-Match', in: 'header', required: false, description: 'ETags held by the client, or *; a match answers 304', schema: { type: 'string' } },
      { name: 'If-Modified-Since', in: 'header', required: false, description: 'Not changed since then answers 304', schema: { type: 'string' } },
    );
  }
  if (r.id === 'files.download' || r.id === 'files.upload' || r.id === 'files.delete') {
    out.push(
      { name: 'If-Match', in: 'header', required: false, description: 'ETags (strong comparison), or *; no match answers 412', schema: { type: 'string' } },
      { name: 'If-Unmodified-Since', in: 'header', required: false, description: 'Changed since then answers 412', schema: { type: 'string' } },
    );
  }
  if (r.id === 'files.upload' || r.id === 'files.delete') {
    out.push({
      name: 'If-None-Match',
      in: 'header',
      required: false,
      description: '"*": only if the file does not exist; an ETag: only if the file is not that content (else 412)',
      schema: { type: 'string' },
    });
  }
  return out;
}

/**
 * The OpenAPI 3.1 document, generated from the same route table and zod schemas that validate requests: every
 * operation with its parameters, success responses (with their headers), and each error status with its codes.
 *
 * @example
 * const doc = buildOpenApi([...allRoutes, ...Object.values(systemRoutes)], { version: '0.1.0' });
 */
function buildOpenApi(routes: RouteDef[], info: { version: string }): Json {
  const paths: Record<string, Json> = {};
  const tags = new Set<string>();
  for (const r of routes) {
    const inputSchema = schemaOf(r.input, 'input') as { properties?: Record<string, Json>; required?: string[] };
    const props = inputSchema.properties ?? {};
    const required = new Set(inputSchema.required ?? []);
    const inPath = new Set(pathParams(r.path));
    const bodyInQuery = r.method === 'GET' || r.method === 'DELETE' || !!r.raw?.request;
    const parameters = Object.entries(props)
      .filter(([name]) => inPath.has(name) || bodyInQuery)
      .map(([name, schema]) => ({
        name,
        in: inPath.has(name) ? 'path' : 'query',
        required: inPath.has(name) || required.has(name),
        description: schema.description,
        schema,
      }));
    const bodyProps = Object.fromEntries(Object.entries(props).filter(([name]) => !inPath.has(name)));
    const status = String(r.status ?? 200);
    const success = r.raw?.response ? rawResponses(r, status) : jsonResponses(r, status, schemaOf(r.output, 'output'));
    for (const t of r.tags) tags.add(t);
    const op: Json = {
      operationId: r.id,
      summary: r.summary,
      ...(r.description ? { description: r.description } : {}),
      tags: r.tags,
      parameters: [...parameters, ...headerParameters(r)],
      responses: { ...success, ...errorResponses(routeErrors(r), r) },
      ...(r.public ? { security: [] } : {}),
    };
    if (r.raw?.request)
      op.requestBody = { required: true, content: { [r.raw.request]: { schema: r.raw.request === 'multipart/form-data' ? { type: 'object' } : binary } } };
    else if (!bodyInQuery) {
      op.requestBody = {
        required: true,
        content: { 'application/json': { schema: { type: 'object', properties: bodyProps, required: [...required].filter((n) => !inPath.has(n)) } } },
      };
    }
    const p = '/api/v1' + r.path;
    paths[p] = { ...(paths[p] ?? {}), [r.method.toLowerCase()]: op };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Stoa API',
      version: info.version,
      description:
        'Files, memory, wiki and search shared by people and AI agents. Errors are RFC 9457 problem+json with a stable `code`; ' +
        'a method a path does not serve answers 405 with an `Allow` header.',
      license: { name: 'UNLICENSED', identifier: 'UNLICENSED' },
    },
    servers: [{ url: '/', description: 'The server that serves this document' }],
    security: [{ bearer: [] }],
    tags: [...tags].sort().map((name) => ({ name, description: `Operations of the ${name} area` })),
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API token (`stoa token create`) or a web session token' } },
      schemas: {
        Problem: {
          type: 'object',
          required: ['type', 'title', 'status', 'code', 'detail'],
          properties: {
            type: { type: 'string' },
            title: { type: 'string' },
            status: { type: 'integer' },
            detail: { type: 'string' },
            instance: { type: 'string' },
            code: { type: 'string', enum: Object.keys(errorCodes) },
          },
        },
      },
    },
  };
}

/** Every route the API serves: the contract's route table and the server's own routes. */
export function apiRoutes(): RouteDef[] {
  return [...allRoutes, ...Object.values(systemRoutes)];
}

/**
 * The document the server publishes at /api/v1/openapi.json (also printed by `npm run openapi`).
 *
 * @example
 * writeFileSync('openapi.json', JSON.stringify(apiDocument()));
 */
export function apiDocument(): Json {
  return buildOpenApi(apiRoutes(), { version: '0.1.0' });
}
