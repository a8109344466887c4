import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** What an MCP door needs: the tool list for this caller, and a way to run one call (in-process or over HTTP). */
export interface McpBackend {
  listTools(): Promise<Array<{ name: string; description: string; inputSchema: Record<string, unknown> }>>;
  callTool(name: string, args: Record<string, unknown>): Promise<{ text: string; refused: boolean }>;
}

/** Sent to clients at initialisation; the tool descriptions are the manual (A6), this only points at them. */
const INSTRUCTIONS = 'Stoa project files. The ws_* and file tools read and change the project storage under the rules in each tool description; answers starting with "Refused:" mean nothing was changed.';

/**
 * The Stoa MCP server for one caller, on the official SDK. The tool list and input schemas are the contract's
 * (the same as `stoa tools --format mcp`), so tools/list and tools/call are answered directly rather than through
 * `registerTool`, which would re-derive schemas and validate arguments with messages of its own. A refusal is a
 * normal tool result whose text starts with "Refused:" and `isError: true`, so the model can change course.
 *
 * @example
 * const server = createStoaMcpServer({ listTools, callTool });
 * await server.connect(new StdioServerTransport());
 */
export function createStoaMcpServer(backend: McpBackend): McpServer {
  const mcp = new McpServer({ name: 'stoa', title: 'Stoa', version: '0.1.0' }, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });
  mcp.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: (await backend.listTools()) as any }));
  mcp.server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const r = await backend.callTool(req.params.name, (req.params.arguments ?? {}) as Record<string, unknown>);
    return { content: [{ type: 'text' as const, text: r.text }], isError: r.refused };
  });
  return mcp;
}
