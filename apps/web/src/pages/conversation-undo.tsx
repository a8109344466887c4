import { useCallback, useEffect, useState } from 'react';
import { agentsApi, type ConversationChange, type RevertResult } from '../api/agents.js';
import { useI18n } from '../i18n/index.js';
import { useSession } from '../session.js';
import { errorText } from '../format.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { LoadState } from '../components/load-state.js';

/** A unified diff drawn like the wiki's version diff: the hunks only, added and removed lines marked. */
function UnifiedDiff({ text }: { text: string }) {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith('@@'));
  const body = start < 0 ? [] : lines.slice(start).filter((l) => l !== '\\ No newline at end of file');
  while (body.length > 0 && body[body.length - 1] === '') body.pop();
  return (
    <pre className="diff">
      {body.map((l, i) => (
        <div key={i} className={l.startsWith('+') ? 'added' : l.startsWith('-') ? 'removed' : l.startsWith('@@') ? 'hunk' : 'kept'}>
          {l}
        </div>
      ))}
    </pre>
  );
}

const KIND = { file: 'undo.kind.file', wiki: 'undo.kind.wiki', memory: 'undo.kind.memory' } as const;

/**
 * "Review changes" of one conversation (B11): every item it changed with its diff, and "Undo this conversation",
 * which restores them as new versions and says, item by item, which were refused because someone changed them since.
 */
export function ConversationUndo({ conversation }: { conversation: string }) {
  const { project } = useSession();
  const { t } = useI18n();
  const [items, setItems] = useState<ConversationChange[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [results, setResults] = useState<RevertResult[] | null>(null);
  const [undoError, setUndoError] = useState<string | null>(null);
  const load = useCallback(() => {
    setError(null);
    agentsApi.changes(project.id, conversation).then(
      (r) => setItems(r.items),
      (e: unknown) => setError(errorText(e, t)),
    );
  }, [project.id, conversation, t]);
  useEffect(load, [load]);
  const undo = async () => {
    setConfirming(false);
    setBusy(true);
    setUndoError(null);
    try {
      const r = await agentsApi.revert(project.id, conversation);
      setResults(r.results);
      load();
    } catch (e) {
      setUndoError(errorText(e, t));
    } finally {
      setBusy(false);
    }
  };
  // One item at a time, with the same API (its ref in `items`): what it did shows under "What undo did".
  const undoOne = async (ref: string) => {
    setBusy(true);
    setUndoError(null);
    try {
      const r = await agentsApi.revert(project.id, conversation, [ref]);
      setResults((was) => [...(was ?? []).filter((x) => x.ref !== ref), ...r.results]);
      load();
    } catch (e) {
      setUndoError(errorText(e, t));
    } finally {
      setBusy(false);
    }
  };
  const version = (v: { version: number } | null, none: string) => (v ? `v${v.version}` : none);
  const versions = (i: ConversationChange) =>
    i.after === null
      ? i.before
        ? t('undo.deletedWas', { v: i.before.version })
        : t('undo.deleted')
      : t('undo.versions', {
          before: version(i.before, t('undo.didNotExist')),
          after: version(i.after, t('undo.deleted')),
          current: version(i.current, t('undo.deleted')),
        });
  const revertible = items?.filter((i) => i.status === 'revertible').length ?? 0;
  return (
    <section className="conversation-undo" aria-label={t('undo.title')}>
      <h4>{t('undo.title')}</h4>
      {items === null ? (
        <LoadState error={error} onRetry={load} lines={3} />
      ) : items.length === 0 ? (
        <p className="empty">{t('undo.none')}</p>
      ) : (
        <ul className="change-list">
          {items.map((i) => (
            <li key={i.ref} data-change={i.ref} data-status={i.status}>
              <p>
                <strong>{t(KIND[i.kind])}</strong> <code>{i.path}</code>{' '}
                <span className="muted">
                  {i.movedFrom && `${t('undo.movedFrom', { path: i.movedFrom })} · `}
                  {i.movedSince && `${t('undo.movedSince', { to: i.path, from: i.movedSince })} · `}
                  {versions(i)}
                </span>
                {i.status === 'revertible' && (
                  <>
                    {' '}
                    <button className="undo-item" aria-label={t('undo.undoItem', { path: i.path })} disabled={busy} onClick={() => void undoOne(i.ref)}>
                      {t('undo.undoOne')}
                    </button>
                  </>
                )}
              </p>
              <p className={i.status === 'conflict' || i.status === 'unrecoverable' ? 'notice warn' : 'muted'}>
                {t(`undo.status.${i.status}`, { who: i.changedBy.join(', ') })}
              </p>
              {i.diff ? (
                <UnifiedDiff text={i.diff} />
              ) : i.binary ? (
                <p className="muted">{t('undo.binary', { before: i.before?.size ?? 0, after: i.after?.size ?? 0 })}</p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {items !== null && items.length > 0 && (
        <button className="danger" disabled={busy || revertible === 0} onClick={() => setConfirming(true)}>
          {t('undo.undo')}
        </button>
      )}
      {undoError && (
        <p className="notice error" role="alert">
          {undoError}
        </p>
      )}
      {results && (
        <section aria-label={t('undo.results')} data-undo-results>
          <h4>{t('undo.results')}</h4>
          <div role="status">
            <ul>
              {results.map((r) => (
                <li key={r.ref} data-result={r.ref} data-status={r.status} className={r.status === 'reverted' || r.status === 'unchanged' ? '' : 'notice warn'}>
                  {t(`undo.result.${r.status}`, { path: r.path })}
                </li>
              ))}
            </ul>
          </div>
        </section>
      )}
      {confirming && (
        <ConfirmDialog
          message={t('undo.confirm', { n: revertible })}
          confirmLabel={t('undo.undo')}
          onConfirm={() => void undo()}
          onCancel={() => setConfirming(false)}
        />
      )}
    </section>
  );
}
