import { useState } from 'react';
import type { FileInfo, Folder } from '../../api/files.js';
import { useI18n } from '../../i18n/index.js';
import { formatBytes, formatDate } from '../../format.js';
import { CreatedBy } from './created-by.js';
import { Icon } from '../../components/icons.js';

export interface FileActions {
  canEdit: boolean;
  onOpen: (f: FileInfo) => void;
  onFolder: (path: string) => void;
  onDownload: (f: FileInfo) => void;
  onMove: (f: FileInfo, to: string) => Promise<boolean>;
  onDelete: (f: FileInfo) => void;
}

/**
 * The table of F5: Name (click → preview), Created by, Size, Type, Modified, Actions. In search mode
 * (`showPaths`) each name carries the file's full path (F7). Subfolders come first and open on click.
 *
 * @example
 * <FileTable folders={[]} files={page.files} showPaths={false} selectedPath={null} actions={actions} />
 */
export function FileTable(props: { folders: Folder[]; files: FileInfo[]; showPaths: boolean; selectedPath: string | null; actions: FileActions }) {
  const { t, lang } = useI18n();
  const [editing, setEditing] = useState<string | null>(null);
  const [target, setTarget] = useState('');
  const a = props.actions;

  const startEdit = (f: FileInfo) => {
    setEditing(f.path);
    setTarget(f.path);
  };
  const submit = async (f: FileInfo) => {
    if (target === f.path || !target.trim()) return setEditing(null);
    if (await a.onMove(f, target.trim())) setEditing(null);
  };

  return (
    <table className="files">
      <thead>
        <tr>
          <th>{t('files.col.name')}</th><th>{t('files.col.createdBy')}</th><th className="num">{t('files.col.size')}</th>
          <th>{t('files.col.type')}</th><th>{t('files.col.modified')}</th><th>{t('files.col.actions')}</th>
        </tr>
      </thead>
      <tbody>
        {props.folders.map((d) => (
          <tr key={`d:${d.path}`} className="folder-row">
            <td colSpan={6}><button className="link" onClick={() => a.onFolder(d.path)}><Icon name="folder" /> {d.name}</button></td>
          </tr>
        ))}
        {props.files.map((f) => (
          <tr key={f.id} data-path={f.path} className={props.selectedPath === f.path ? 'selected' : ''}>
            <td className="name">
              {editing === f.path ? (
                <form className="rename" onSubmit={(e) => { e.preventDefault(); void submit(f); }}>
                  <input aria-label={t('files.rename')} title={t('files.renameHint')} value={target} autoFocus
                    onChange={(e) => setTarget(e.target.value)} onKeyDown={(e) => e.key === 'Escape' && setEditing(null)} />
                  <button type="submit">{t('common.save')}</button>
                  <button type="button" onClick={() => setEditing(null)}>{t('common.cancel')}</button>
                  <small>{t('files.renameHint')}</small>
                </form>
              ) : (
                <>
                  <button className="link file-name" onClick={() => a.onOpen(f)}>{f.name}</button>
                  {props.showPaths && <div className="full-path">{f.path}</div>}
                </>
              )}
            </td>
            <td><CreatedBy file={f} /></td>
            <td className="num" title={`${f.size} B`}>{formatBytes(f.size)}</td>
            <td className="type">{f.type}</td>
            <td className="date">{formatDate(f.modified, lang)}</td>
            <td className="actions">
              <button title={t('files.download')} aria-label={`${t('files.download')} ${f.name}`} onClick={() => a.onDownload(f)}><Icon name="download" /></button>
              <button title={t('files.rename')} aria-label={`${t('files.rename')} ${f.name}`} disabled={!a.canEdit} onClick={() => startEdit(f)}><Icon name="edit" /></button>
              <button title={t('files.delete')} aria-label={`${t('files.delete')} ${f.name}`} disabled={!a.canEdit} className="danger" onClick={() => a.onDelete(f)}><Icon name="trash" /></button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
