import { useCallback, useEffect, useState } from 'react';
import { trashApi, type TrashItem, type TrashList } from '../api/trash.js';
import { useI18n } from '../i18n/index.js';
import { useSession } from '../session.js';
import { authorLabel, formatBytes, formatDate } from '../format.js';
import { navigate } from '../router.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { NoticeLine, useNotice } from './files/notice.js';
import { GridHead } from '../components/grid-head.js';

/**
 * The Trash (issue 29): what was deleted in this project or volume, by whom, when, from where and how large, until
 * it expires. Whoever may write files restores an entry (beside the original when that path is taken); an admin
 * deletes one forever, after a confirmation. The server decides both again.
 *
 * @example
 * <TrashPage />
 */
export function TrashPage() {
  const { t, lang } = useI18n();
  const { project } = useSession();
  const [list, setList] = useState<TrashList | null>(null);
  const [purging, setPurging] = useState<TrashItem | null>(null);
  const { notice, say, fail, clear } = useNotice();
  const reload = useCallback(() => trashApi.list(project.id).then(setList, fail), [project.id, fail]);
  useEffect(() => {
    void reload();
  }, [reload]);
  const restore = (i: TrashItem) =>
    trashApi.restore(project.id, i.id).then(
      (r) => {
        say(r.beside ? t('trash.restoredBeside', { from: r.from, path: r.path }) : t('trash.restored', { path: r.path }));
        void reload();
      },
      (e: unknown) => {
        fail(e);
        void reload();
      },
    );
  const purge = (i: TrashItem) => {
    setPurging(null);
    trashApi.purge(project.id, i.id).then(
      () => {
        say(t('trash.purged', { path: i.path }));
        void reload();
      },
      (e: unknown) => {
        fail(e);
        void reload();
      },
    );
  };

  return (
    <div className="trash-page">
      <div className="page-head">
        <h1>{t('trash.title')}</h1>
        <a
          href="/files"
          onClick={(e) => {
            e.preventDefault();
            navigate('/files');
          }}
        >
          {t('trash.back')}
        </a>
      </div>
      <p>{t('trash.intro')}</p>
      <NoticeLine notice={notice} onClose={clear} />
      {list !== null && list.items.length === 0 && <p>{t('trash.empty')}</p>}
      {list !== null && list.items.length > 0 && (
        <table className="grid trash">
          <GridHead
            columns={[
              t('trash.col.name'),
              t('trash.col.from'),
              t('trash.col.size'),
              t('trash.col.deletedBy'),
              t('trash.col.deletedAt'),
              t('trash.col.expires'),
            ]}
          />
          <tbody>
            {list.items.map((i) => (
              <tr key={i.id} data-trash={i.path}>
                <td>{i.kind === 'folder' ? `${i.name}/ (${t('trash.files', { n: i.files })})` : i.name}</td>
                <td>{i.path}</td>
                <td>{formatBytes(i.size)}</td>
                <td>{authorLabel(t, i.deletedBy)}</td>
                <td>{formatDate(i.deletedAt, lang)}</td>
                <td>{formatDate(i.expiresAt, lang)}</td>
                <td className="actions">
                  <button disabled={!list.mayRestore} onClick={() => void restore(i)} aria-label={t('trash.restoreOf', { name: i.path })}>
                    {t('trash.restore')}
                  </button>
                  {list.mayPurge && (
                    <button className="danger" onClick={() => setPurging(i)} aria-label={t('trash.purgeOf', { name: i.path })}>
                      {t('trash.purge')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {purging && (
        <ConfirmDialog
          message={t('trash.purgeConfirm', { path: purging.path })}
          confirmLabel={t('trash.purge')}
          onConfirm={() => purge(purging)}
          onCancel={() => setPurging(null)}
        />
      )}
    </div>
  );
}
