import { useState } from 'react';
import { useI18n } from '../../i18n/index.js';
import { focusOnMount } from '../../components/focus-trap.js';

/**
 * Checks a folder name the way the server checks path segments (F1), so a bad name is caught before upload.
 *
 * @example
 * folderNameProblem('reports/2026') // false; folderNameProblem('a//b') // true
 */
export function folderNameProblem(name: string): boolean {
  if (!name || name.startsWith('/') || name.endsWith('/') || name.includes('\\')) return true;
  const parts = name.split('/');
  return parts.some((p) => p === '' || p === '.' || p === '..' || p.length > 255 || /[\u0000-\u001f\u007f]/.test(p));
}

/**
 * "New folder" (F9): a name or a nested path like reports/2026, created under the selected folder.
 *
 * @example
 * <NewFolderForm parent="reports" onCreate={select} onCancel={close} onError={fail} />
 */
export function NewFolderForm(props: { parent: string; onCreate: (path: string) => void; onCancel: () => void; onError: (m: string) => void }) {
  const { t } = useI18n();
  const [name, setName] = useState('');
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const n = name
      .trim()
      .replace(/(?<!\/)\/+$/, '')
      .normalize('NFC');
    if (folderNameProblem(n)) return props.onError(t('error.path_invalid'));
    props.onCreate(props.parent ? `${props.parent}/${n}` : n);
  };
  return (
    <form className="new-folder" onSubmit={submit}>
      <input
        ref={focusOnMount}
        aria-label={t('files.newFolderName')}
        placeholder={t('files.newFolderName')}
        value={name}
        onChange={(e) => setName(e.target.value)}
        onKeyDown={(e) => e.key === 'Escape' && props.onCancel()}
      />
      <button type="submit">{t('common.create')}</button>
      <button type="button" onClick={props.onCancel}>
        {t('common.cancel')}
      </button>
    </form>
  );
}
