import type { Command } from 'commander';
import { routeIndex } from '@stoa/contract/route-index';
import { action } from '../context.js';
import { print, table } from '../output.js';

/** `stoa conversations create|list|trace|changes|revert` (§7, F15, B11). */
export function registerConversations(program: Command): void {
  const conv = program.command('conversations').description('Channels, direct conversations and agent dialogs');
  conv
    .command('create')
    .description('Create a conversation; with one agent as the only other member it is a dialog')
    .option('--channel <name>', 'make it a channel with this name')
    .option('--members <ids>', 'comma-separated user names/IDs and agent IDs')
    .action(
      action(async (api, g, o: { channel?: string; members?: string }) => {
        const members = o.members
          ? o.members
              .split(',')
              .map((m) => m.trim())
              .filter(Boolean)
          : undefined;
        const c = await api.call(routeIndex.conversations.create, { project: api.project, channel: o.channel, members });
        print(!!g.json, c, () => `Created ${c.kind}${c.name ? ` #${c.name}` : ''} ${c.id} with ${c.members.map((m) => m.name).join(', ')}`);
      }),
    );
  conv
    .command('list')
    .description('Conversations you take part in (admins: all)')
    .action(
      action(async (api, g) => {
        const list = await api.call(routeIndex.conversations.list, { project: api.project });
        print(!!g.json, list, () =>
          list.length === 0
            ? 'No conversations.'
            : table([['ID', 'KIND', 'NAME', 'MEMBERS'], ...list.map((c) => [c.id, c.kind, c.name ?? '', c.members.map((m) => m.name).join(', ')])]),
        );
      }),
    );
  conv
    .command('trace <id>')
    .description('Tool calls made in a conversation, oldest first')
    .option('--limit <n>', 'entries to show', '1000')
    .action(
      action(async (api, g, id: string, o: { limit: string }) => {
        const { entries } = await api.call(routeIndex.conversations.trace, { project: api.project, id, limit: Number(o.limit) });
        print(!!g.json, entries, () =>
          entries.length === 0
            ? 'No tool calls.'
            : table([
                ['AT', 'AGENT', 'TOOL', 'ARGS', 'RESULT', 'MS'],
                ...entries.map((e) => [e.at, e.agentName ?? '', e.tool, e.args.slice(0, 60), e.result.split('\n')[0]!.slice(0, 80), String(e.durationMs)]),
              ]),
        );
      }),
    );
  const version = (v: { version: number } | null, none: string) => (v ? `v${v.version}` : none);
  conv
    .command('changes <id>')
    .description('Review every change a conversation made (files, wiki, memory) as one diff, and what undo would do (B11)')
    .action(
      action(async (api, g, id: string) => {
        const r = await api.call(routeIndex.conversations.changes, { project: api.project, id });
        print(!!g.json, r, () => {
          if (r.items.length === 0) return 'This conversation changed nothing you may read.';
          return r.items
            .map((i) =>
              [
                `${i.status.toUpperCase()}  ${i.kind} ${i.path}${i.movedFrom ? ` (moved from ${i.movedFrom})` : ''}  ${version(i.before, 'did not exist')} → ${version(i.after, 'deleted')}, now ${version(i.current, 'gone')}`,
                `  ${i.note}${i.changedBy.length ? ` Changed since by: ${i.changedBy.join(', ')}.` : ''}`,
                i.diff ?? (i.binary ? `  binary: ${i.before?.size ?? 0} → ${i.after?.size ?? 0} bytes` : ''),
              ]
                .filter(Boolean)
                .join('\n'),
            )
            .join('\n\n');
        });
      }),
    );
  conv
    .command('revert <id>')
    .description('Undo a conversation: restore each item it changed as a new version, refusing those someone changed since (B11)')
    .option(
      '--item <ref>',
      'only this item (a ref from `conversations changes`, e.g. file:notes.md); repeat for more',
      (v: string, all: string[]) => [...all, v],
      [],
    )
    .action(
      action(async (api, g, id: string, o: { item: string[] }) => {
        const r = await api.call(routeIndex.conversations.revert, { project: api.project, id, items: o.item.length ? o.item : undefined });
        print(!!g.json, r, () => {
          if (r.results.length === 0) return 'This conversation changed nothing you may read; nothing to undo.';
          const done = r.results.filter((x) => x.status === 'reverted').length;
          return `${table([['STATUS', 'ITEM', 'WHAT HAPPENED'], ...r.results.map((x) => [x.status, x.ref, x.message])])}\n${done} of ${r.results.length} reverted.`;
        });
      }),
    );
}
