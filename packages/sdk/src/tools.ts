import { projectRoutes, toolRoutes, type RouteOutput, type ToolFormat } from '@stoa/contract';
import type { StoaClient } from './client.js';

export type ToolCallResult = RouteOutput<typeof toolRoutes.call>;

/**
 * The agent file tools for frameworks that use plain function calling (OpenAI, Anthropic, LangGraph…): fetch
 * the schemas in the framework's format, then execute each call the model makes by name. Rules, limits and
 * refusals are the server's; a refusal is a normal result whose `text` starts with "Refused:" — hand `text`
 * back to the model either way.
 *
 * @example
 * const stoa = new StoaClient({ url, token: AGENT_TOKEN, conversationId });
 * const tools = new StoaTools(stoa);
 * const schemas = await tools.schemas('openai');              // pass to chat.completions.create({ tools })
 * const { text } = await tools.execute('ws_read_file', { path: 'pricing/price-list.md' });
 */
export class StoaTools {
  constructor(
    private readonly client: StoaClient,
    private readonly opts: { project?: string; conversation?: string; process?: string; node?: string } = {},
  ) {}

  /** The project: the given one, or the agent token's own project (asked once). */
  private project?: Promise<string>;
  private projectOf(): Promise<string> {
    if (this.opts.project) return Promise.resolve(this.opts.project);
    this.project ??= this.client.call(projectRoutes.me, {}).then((me) => me.projectId ?? 'default');
    return this.project;
  }

  /**
   * Tool schemas in `mcp`, `openai` (function tools) or `anthropic` (Messages API `tools`) shape; `strict`: within
   * the vendor's strict mode (`strict: true` tools; optional arguments the model leaves null count as absent).
   */
  async schemas(format: ToolFormat = 'openai', opts: { strict?: boolean } = {}): Promise<unknown[]> {
    return this.client.call(toolRoutes.list, { project: await this.projectOf(), format, ...(opts.strict ? { strict: 'true' as const } : {}) });
  }

  /** Executes one tool call by name; `args` may be the model's JSON string or an object. */
  async execute(name: string, args: string | Record<string, unknown> = {}): Promise<ToolCallResult> {
    const parsed = typeof args === 'string' ? (args.trim() ? (JSON.parse(args) as Record<string, unknown>) : {}) : args;
    return this.client.call(toolRoutes.call, {
      project: await this.projectOf(),
      name,
      arguments: parsed,
      conversation: this.opts.conversation,
      process: this.opts.process,
      node: this.opts.node,
    });
  }
}

/**
 * One-shot form of {@link StoaTools.execute}.
 *
 * @example
 * const r = await executeTool(stoa, 'ws_write_file', { path: 'notes.md', content: 'hi' }, { project: 'default' });
 */
export function executeTool(
  client: StoaClient,
  name: string,
  args: string | Record<string, unknown>,
  opts: ConstructorParameters<typeof StoaTools>[1] = {},
): Promise<ToolCallResult> {
  return new StoaTools(client, opts).execute(name, args);
}
