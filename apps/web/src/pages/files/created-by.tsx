import type { FileInfo } from '../../api/files.js';
import { useI18n } from '../../i18n/index.js';

/**
 * The "Created by" cell (F6): "agent: <name>" for agent-written files, a bare "agent" with the process, node and
 * dialog IDs as its tooltip when the write could not be mapped to an agent of the project, empty for people.
 *
 * @example
 * <td><CreatedBy file={file} /></td>
 */
export function CreatedBy({ file }: { file: FileInfo }) {
  const { t } = useI18n();
  const c = file.creator;
  if (c.kind === 'agent' && c.label)
    return (
      <span className="tag agent" title={c.id ?? undefined}>
        {t('files.agentTag', { name: c.label })}
      </span>
    );
  if (c.kind === 'agent' || c.kind === 'unmapped_agent' || file.createdBy === 'agent') {
    const m = (c.meta ?? {}) as Record<string, unknown>;
    const v = (k: string) => (typeof m[k] === 'string' && m[k] ? String(m[k]) : '—');
    const tip = t('files.agentTooltip', { process: v('processId'), node: v('nodeId'), dialog: v('conversationId') });
    return (
      <span className="tag agent unmapped" title={tip} aria-label={`${t('files.agent')} (${tip})`}>
        {t('files.agent')}
      </span>
    );
  }
  return null;
}
