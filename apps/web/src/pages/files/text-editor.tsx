import { useState } from 'react';
import { ApiError } from '../../api/client.js';
import { filesApi, type FileInfo } from '../../api/files.js';
import { saveText } from '../../api/save-text.js';
import { useI18n } from '../../i18n/index.js';
import { errorText } from '../../format.js';
import { ConflictResolver, type ConflictChoice } from '../../components/conflict-resolver.js';
import { utf8Text } from './preview-modes.js';

/**
 * A text file edited in the preview panel, saved with the conflict rule of the wiki (F11, W3): the save names
 * the version the editing started from and the server refuses it (version_conflict) when someone saved since;
 * nothing is lost then — the conflict view shows both texts and a merge, and the person picks. This module is its
 * own chunk (the diff and merge code load only when someone edits).
 *
 * @example
 * <TextEditor project={pid} file={file} text={text} onSaved={reopen} onCancel={close} />
 */
export function TextEditor(props: { project: string; file: FileInfo; text: string; onSaved: (f: FileInfo | null) => void; onCancel: () => void }) {
  const { t } = useI18n();
  const { project, file } = props;
  const [value, setValue] = useState(props.text);
  const [conflict, setConflict] = useState<{ theirs: string; version: number; by: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const save = async (body: string, expected: number) => {
    setBusy(true);
    setError(null);
    try {
      props.onSaved(await saveText(project, file.path, body, expected));
    } catch (e) {
      if (!(e instanceof ApiError && e.code === 'version_conflict')) return setError(errorText(e, t));
      try {
        // Their text at the version the server has now, read by that version so the two always match.
        const now = await filesApi.stat(project, file.path);
        const theirs = utf8Text(await (await filesApi.content(project, file.path, now.version)).arrayBuffer());
        if (theirs === null) return setError(t('edit.notText'));
        const c = now.creator;
        setConflict({ theirs, version: now.version, by: c.kind === 'agent' && c.label ? t('files.agentTag', { name: c.label }) : (c.label ?? '—') });
      } catch (e2) {
        setError(errorText(e2, t));
      }
    } finally {
      setBusy(false);
    }
  };

  const resolve = (c: ConflictChoice) => {
    const at = conflict!.version;
    setConflict(null);
    if (c.kind === 'theirs') return props.onSaved(null);
    setValue(c.text);
    void save(c.text, at);
  };

  return (
    <div className="text-editor">
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {conflict ? (
        <ConflictResolver
          key={conflict.version}
          base={props.text}
          baseVersion={file.version}
          mine={value}
          theirs={conflict.theirs}
          theirsVersion={conflict.version}
          theirsBy={conflict.by}
          onResolve={resolve}
        />
      ) : (
        <>
          <textarea
            className="edit-text"
            aria-label={t('edit.label', { name: file.name })}
            rows={20}
            spellCheck={false}
            value={value}
            onChange={(e) => setValue(e.currentTarget.value)}
          />
          <div className="row">
            <button type="button" disabled={busy || value === props.text} onClick={() => void save(value, file.version)}>
              {t('common.save')}
            </button>
            <button type="button" className="secondary" disabled={busy} onClick={props.onCancel}>
              {t('common.cancel')}
            </button>
          </div>
        </>
      )}
    </div>
  );
}
