import type { Command } from 'commander';
import { routeIndex } from '@stoa/contract/route-index';
import { action } from '../context.js';
import { UsageError } from '../output.js';

/** `stoa tools [--format mcp|openai|anthropic] [--strict]`: the tool schemas as JSON (always JSON: they are for programs). */
export function registerTools(program: Command): void {
  program
    .command('tools')
    .description('Print the agent file tool schemas (MCP, OpenAI or Anthropic function-calling format)')
    .option('--format <format>', 'mcp | openai | anthropic', 'mcp')
    .option('--strict', "schemas within the vendor's strict mode (openai, anthropic), marked strict: true")
    .action(
      action(async (api, _g, o: { format: string; strict?: boolean }) => {
        if (!['mcp', 'openai', 'anthropic'].includes(o.format)) throw new UsageError('--format must be mcp, openai or anthropic');
        if (o.strict && o.format === 'mcp') throw new UsageError('--strict goes with --format openai or anthropic');
        const tools = await api.call(routeIndex.tools.list, {
          project: api.project,
          format: o.format as 'mcp',
          ...(o.strict ? { strict: 'true' as const } : {}),
        });
        process.stdout.write(JSON.stringify(tools, null, 2) + '\n');
      }),
    );
}
