import { ErrorCode, McpError, type ReadResourceResult, type Resource, type ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';

/** What resources need of a tool call's outcome (mcp-server.ts's McpCallOutcome). */
interface ReadOutcome {
  text: string;
  refused: boolean;
  code?: string;
  path?: string | null;
  content?: Array<{ type: 'image'; mimeType: string; data: string }>;
}

/** How resources are read: the caller's tool calls, through the operation runner as the calling agent. */
interface ResourceBackend {
  /** The project (or volume) ID in the URIs. */
  project(): Promise<string>;
  callTool(name: string, args: Record<string, unknown>): Promise<ReadOutcome>;
}

type Kind = 'files' | 'wiki' | 'memory';

/** Most resources one resources/list page holds; the next page is asked for with `nextCursor`. */
const RESOURCES_PAGE = 100;
/** Most wiki pages listed (files are capped by the tool itself at STOA_AGENT_LIST_MAX). */
const WIKI_LIST_MAX = 1000;
const MEMORY_FILES = ['SOUL.md', 'AGENTS.md', 'MEMORY.md'] as const;
/** JSON-RPC code MCP gives a resource that does not exist (or, here, that the caller may not read). */
const RESOURCE_NOT_FOUND = -32002;

/**
 * The stable URI of a file, wiki page or memory file: `stoa://<project>/<files|wiki|memory>/<path>`, each
 * segment percent-encoded.
 *
 * @example
 * resourceUri('default', 'files', 'отчёты/план.md') // 'stoa://default/files/%D0%BE…/%D0%BF….md'
 */
function resourceUri(project: string, kind: Kind, path: string): string {
  return `stoa://${encodeURIComponent(project)}/${kind}/${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** The kind and path of a Stoa URI in this project, or null for any other URI. */
function parseResourceUri(uri: string, project: string): { kind: Kind; path: string } | null {
  const m = /^stoa:\/\/([^/]+)\/(files|wiki|memory)\/(.+)$/.exec(uri);
  if (!m) return null;
  try {
    if (decodeURIComponent(m[1]!) !== project) return null;
    const path = m[3]!.split('/').map(decodeURIComponent).join('/');
    return { kind: m[2] as Kind, path };
  } catch {
    return null; // malformed percent-encoding
  }
}

/** Everything the caller may read, in a fixed order (memory, wiki, files); each source is capped. */
async function allResources(b: ResourceBackend): Promise<Resource[]> {
  const project = await b.project();
  const out: Resource[] = [];
  // A memory file is listed only when the caller may read it (e.g. MEMORY.md needs a conversation; a volume has none).
  for (const file of MEMORY_FILES) {
    const r = await b.callTool('memory_get', { file });
    if (!r.refused) out.push({ uri: resourceUri(project, 'memory', file), name: file, title: `Memory: ${file}`, mimeType: 'text/markdown' });
  }
  const wiki = await b.callTool('wiki_list', {});
  if (!wiki.refused)
    for (const line of wiki.text.split('\n').slice(0, WIKI_LIST_MAX)) {
      const at = line.indexOf(' — ');
      if (at <= 0) continue;
      const path = line.slice(0, at);
      const title = line.slice(at + 3).replace(/ \(version [^)]*\)$/, '');
      out.push({ uri: resourceUri(project, 'wiki', path), name: path, title, mimeType: 'text/markdown' });
    }
  const files = await b.callTool('list_files', {});
  if (!files.refused) {
    const listed = JSON.parse(files.text) as { files: Array<{ filePath: string; type: string; size: number }> };
    for (const f of listed.files) out.push({ uri: resourceUri(project, 'files', f.filePath), name: f.filePath, mimeType: f.type, size: Number(f.size) });
  }
  return out;
}

/**
 * `resources/list`: one page of the caller's memory files, wiki pages and files. The cursor is the offset of
 * the next page; what the caller may not read is never listed.
 */
export async function listResources(b: ResourceBackend, cursor: string | undefined): Promise<{ resources: Resource[]; nextCursor?: string }> {
  const all = await allResources(b);
  const from = cursor === undefined ? 0 : /^\d{1,9}$/.test(cursor) ? Number(cursor) : -1;
  if (from < 0 || from > all.length) throw new McpError(ErrorCode.InvalidParams, 'cursor must be one a previous resources/list returned');
  const next = from + RESOURCES_PAGE;
  return { resources: all.slice(from, next), ...(next < all.length ? { nextCursor: String(next) } : {}) };
}

/** `resources/templates/list`: how to name any file, page or memory file of this project. */
export async function resourceTemplates(b: ResourceBackend): Promise<{ resourceTemplates: ResourceTemplate[] }> {
  const p = encodeURIComponent(await b.project());
  return {
    resourceTemplates: [
      { uriTemplate: `stoa://${p}/files/{+path}`, name: 'file', title: 'Project file', description: 'A file by its path from the storage root' },
      { uriTemplate: `stoa://${p}/wiki/{+path}`, name: 'wiki-page', title: 'Wiki page', description: 'A wiki page by its path', mimeType: 'text/markdown' },
      {
        uriTemplate: `stoa://${p}/memory/{file}`,
        name: 'memory-file',
        title: 'Memory file',
        description: "SOUL.md (yours), AGENTS.md (all agents' rules) or MEMORY.md (this conversation's notes)",
        mimeType: 'text/markdown',
      },
    ],
  };
}

const notFound = (uri: string) => new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });

/**
 * `resources/read`: the resource through the matching read tool, so scopes, read limits and the trace apply as
 * to any read. Whatever the caller may not read is "not found", as if it did not exist.
 */
export async function readResource(b: ResourceBackend, uri: string): Promise<ReadResourceResult> {
  const project = await b.project();
  const at = parseResourceUri(uri, project);
  if (!at) throw notFound(uri);
  const call =
    at.kind === 'files'
      ? b.callTool('ws_read_file', { path: at.path })
      : at.kind === 'wiki'
        ? b.callTool('wiki_get', { path: at.path })
        : (MEMORY_FILES as readonly string[]).includes(at.path)
          ? b.callTool('memory_get', { file: at.path })
          : null;
  const r = call ? await call : null;
  if (!r || (r.refused && (r.code === 'not_found' || r.code === 'forbidden' || r.code === 'bad_request'))) throw notFound(uri);
  if (r.refused) throw new McpError(ErrorCode.InvalidRequest, r.text, { code: r.code });
  if (at.kind !== 'files') return { contents: [{ uri, mimeType: 'text/markdown', text: r.text }] };
  // The agent's own copy is read before a shared file at the same path: name the one read, by its own URI.
  const readUri = r.path && r.path !== at.path ? resourceUri(project, 'files', r.path) : uri;
  const image = r.content?.find((c) => c.type === 'image');
  if (image) return { contents: [{ uri: readUri, mimeType: image.mimeType, blob: image.data }] };
  const text = r.path && r.text.startsWith(`[${r.path}]\n`) ? r.text.slice(r.path.length + 3) : r.text;
  return { contents: [{ uri: readUri, text }] };
}
