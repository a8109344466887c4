import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { listResources, readResource, resourceTemplates } from './resources.js';

/** One tool call's outcome as a door receives it from the core (in-process or over HTTP). */
export interface McpCallOutcome {
  text: string;
  refused: boolean;
  /** Stable code of a refusal (packages/contract/src/errors.ts). */
  code?: string;
  path?: string | null;
  version?: number | null;
  data?: Record<string, unknown>;
  /** An image a read tool returned (issue 29), base64. */
  content?: Array<{ type: 'image'; mimeType: string; data: string }>;
}

/**
 * What an MCP door needs: the tool list for this caller, a way to run one call (in-process or over HTTP), and the
 * project (or volume) ID its resource URIs name.
 */
export interface McpBackend {
  project(): Promise<string>;
  listTools(): Promise<Array<{ name: string; description: string; inputSchema: Record<string, unknown>; outputSchema?: Record<string, unknown> }>>;
  callTool(name: string, args: Record<string, unknown>): Promise<McpCallOutcome>;
}

/** Sent to clients at initialisation; the tool descriptions are the manual (A6), this only points at them. */
const INSTRUCTIONS =
  'Stoa project files, memory and wiki. The rules of the file tools are in the description of ws_list_files; an answer starting with "Refused:" means nothing was changed.';

/**
 * An MCP tool result: the text for the model, and beside it the same outcome as `structuredContent` matching the
 * tool's outputSchema. A refusal is a tool result with `isError: true` carrying its stable code, so the model
 * reads why and can change course, and a program can branch on the code.
 *
 * @example
 * toCallResult({ text: 'Refused: …', refused: true, code: 'version_conflict' }).structuredContent // { text, path: null, version: null, code: 'version_conflict' }
 */
export function toCallResult(r: McpCallOutcome): CallToolResult {
  const structured: Record<string, unknown> = { text: r.text, path: r.path ?? null, version: r.version ?? null };
  if (r.code) structured.code = r.code;
  if (r.data) structured.data = r.data;
  // An image goes beside the text as MCP image content; structuredContent keeps to the outputSchema (no bytes twice).
  const media = (r.content ?? []).map((c) => ({ type: 'image' as const, mimeType: c.mimeType, data: c.data }));
  return { content: [{ type: 'text', text: r.text }, ...media], structuredContent: structured, isError: r.refused };
}

/**
 * The Stoa MCP server for one caller, on the official SDK: tools, and the caller's files, wiki pages and memory
 * files as resources. The tool list, input and output schemas and
 * annotations are the contract's (the same as `stoa tools --format mcp`), so tools/list and tools/call are
 * answered directly rather than through `registerTool`, which would re-derive schemas and validate arguments with
 * messages of its own; the core's one runner validates strictly and names the nearest valid argument. Hence the
 * SDK's low-level `Server`, not `McpServer`: nothing here uses what `McpServer` adds, and loading it (with
 * zod-to-json-schema) costs `stoa mcp` a noticeable part of its start before `initialize` is answered.
 *
 * @example
 * const server = createStoaMcpServer({ listTools, callTool });
 * await server.connect(new StdioServerTransport());
 */
export function createStoaMcpServer(backend: McpBackend): Server {
  const server = new Server(
    { name: 'stoa', title: 'Stoa', version: '0.1.0' },
    { capabilities: { tools: { listChanged: false }, resources: { listChanged: false, subscribe: false } }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: (await backend.listTools()) as Tool[] }));
  server.setRequestHandler(CallToolRequestSchema, async (req) =>
    toCallResult(await backend.callTool(req.params.name, (req.params.arguments ?? {}) as Record<string, unknown>)),
  );
  // Resources: the caller's files, wiki pages and memory files, read through the same tool calls (resources.ts).
  server.setRequestHandler(ListResourcesRequestSchema, (req) => listResources(backend, req.params?.cursor));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => resourceTemplates(backend));
  server.setRequestHandler(ReadResourceRequestSchema, (req) => readResource(backend, req.params.uri));
  return server;
}
