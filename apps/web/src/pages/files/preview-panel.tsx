import { lazy, Suspense, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { downloadFile, filesApi, type FileInfo, type PreviewInfo } from '../../api/files.js';
import { useI18n } from '../../i18n/index.js';
import { errorText, formatBytes, formatDate } from '../../format.js';
import { CreatedBy } from './created-by.js';
import { VersionList } from './version-list.js';
import { Icon } from '../../components/icons.js';
import { kindWord } from './file-kind.js';
import { StarButton } from '../../components/star-button.js';
import { EDIT_MAX_BYTES, renderedKind, utf8Text } from './preview-modes.js';
import { linkedPdfPage } from './preview-state.js';

// The share dialog is a chunk of its own, loaded when first opened: the files page is the first screen.
const ShareDialog = lazy(() => import('./share-dialog.js').then((m) => ({ default: m.ShareDialog })));

// Heavy parts load when first needed, so the Files page's first screen stays light: the markdown renderer, the
// diff, the merge of the conflict view.
const RenderedPreview = lazy(() => import('./rendered-preview.js').then((m) => ({ default: m.RenderedPreview })));
const TextEditor = lazy(() => import('./text-editor.js').then((m) => ({ default: m.TextEditor })));
const VersionCompare = lazy(() => import('./version-compare.js').then((m) => ({ default: m.VersionCompare })));

/** What the panel shows of a file; `utf8` is the text when its bytes are UTF-8 (only such text can be edited). */
type Content =
  | { kind: 'text'; text: string; utf8: boolean }
  | { kind: 'image' | 'pdf'; url: string }
  | { kind: 'none'; reason: PreviewInfo['reason']; limit: number | null };

/** A preview's bytes as the panel shows them; an image's or PDF's type is set here, never taken from the server. */
function contentOf(kind: 'text' | 'image' | 'pdf', fileType: string, bytes: ArrayBuffer): Content {
  if (kind === 'text') {
    const text = utf8Text(bytes);
    return { kind: 'text', text: text ?? new TextDecoder().decode(bytes), utf8: text !== null };
  }
  const type = kind === 'pdf' ? 'application/pdf' : /^image\/(png|jpeg|gif|webp)$/.test(fileType) ? fileType : 'application/octet-stream';
  return { kind, url: URL.createObjectURL(new Blob([bytes], { type })) };
}

/** An earlier version shown in the panel, or two compared. */
type Shown = { kind: 'version'; version: number; content: Content | null } | { kind: 'compare'; from: number; to: number; texts: [string, string] | null };

/**
 * The preview side panel (F11): path, type, size, modified, then the content. Text (HTML included) is shown as
 * text in a <pre> — React escapes it, nothing is ever rendered as HTML. Images and PDF are fetched with the
 * token and shown from blob: URLs. Otherwise (or over a limit) a Download button.
 *
 * @example
 * <PreviewPanel project={pid} file={file} canEdit onClose={close} onChanged={reload} onError={fail} />
 */
export function PreviewPanel(props: {
  project: string;
  file: FileInfo;
  canEdit: boolean;
  onClose: () => void;
  onChanged: () => void;
  onError: (m: string) => void;
}) {
  const { t, lang } = useI18n();
  const { project, file } = props;
  const panel = useRef<HTMLElement>(null);
  // Where the panel sits below the table (narrow screens), bring it into view: a tap on a name shows the file.
  // Closing it goes back to where the page was at that tap, so a long folder is not left at its end. Both this and
  // the Escape key below are set up in the render that opens the panel (layout effects): the renderer runs plain
  // effects a task later (decision 0017), and an Escape pressed right after the tap must find them in place.
  const backTo = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (!window.matchMedia('(max-width: 1100px)').matches) return;
    backTo.current = window.scrollY;
    panel.current?.scrollIntoView({ block: 'start' });
  }, [file.path]);
  const [content, setContent] = useState<Content | null>(null);
  const [error, setError] = useState<string | null>(null);
  // How this file's kind is previewed (and up to which size), for its earlier versions too.
  const [rule, setRule] = useState<{ kind: 'text' | 'image' | 'pdf'; limit: number } | null>(null);
  const [raw, setRaw] = useState(false);
  // The text and version the editing started from: kept while someone else's save reloads the preview below,
  // so the editor and its unsaved text stay, and the save is refused over theirs (the conflict view).
  const [editing, setEditing] = useState<{ text: string; file: FileInfo } | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  useEffect(() => {
    setEditing(null);
    setShown(null);
    setRaw(false);
  }, [file.path]);
  const [sharing, setSharing] = useState(false);

  useEffect(() => {
    let url: string | null = null;
    let cancelled = false;
    setContent(null);
    setError(null);
    (async () => {
      const info = await filesApi.previewInfo(project, file.path);
      if (!cancelled) setRule(info.kind === 'none' ? null : { kind: info.kind, limit: info.limit ?? 0 });
      if (info.kind === 'none') return { kind: 'none', reason: info.reason, limit: info.limit } as Content;
      const res = await filesApi.preview(project, file.path);
      const c = contentOf(info.kind, info.file.type, await res.arrayBuffer());
      if (c.kind === 'image' || c.kind === 'pdf') url = c.url;
      return c;
    })().then(
      (c) => {
        if (cancelled && url) URL.revokeObjectURL(url);
        else if (!cancelled) setContent(c);
      },
      (e) => !cancelled && setError(errorText(e, t)),
    );
    return () => {
      cancelled = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [project, file.path, file.version]);

  // An earlier version in the panel ("Show"), fetched by its number, or two versions' texts for the comparison.
  const shownKey = shown ? (shown.kind === 'version' ? `v${shown.version}` : `c${shown.from}-${shown.to}`) : null;
  useEffect(() => {
    if (!shown || !rule) return;
    let cancelled = false;
    let url: string | null = null;
    const bytesOf = async (v: number) => (await filesApi.content(project, file.path, v)).arrayBuffer();
    const load = async (): Promise<Shown> => {
      if (shown.kind === 'compare') {
        const [a, b] = await Promise.all([bytesOf(shown.from), bytesOf(shown.to)]);
        const text = (x: ArrayBuffer) => utf8Text(x) ?? new TextDecoder().decode(x);
        return { ...shown, texts: [text(a), text(b)] };
      }
      const versions = await filesApi.versions(project, file.path);
      const size = versions.find((v) => v.version === shown.version)?.size ?? 0;
      if (size > rule.limit) return { ...shown, content: { kind: 'none', reason: 'too_large', limit: rule.limit } };
      const c = contentOf(rule.kind, file.type, await bytesOf(shown.version));
      if (c.kind === 'image' || c.kind === 'pdf') url = c.url;
      return { ...shown, content: c };
    };
    load().then(
      (s) => {
        if (cancelled && url) URL.revokeObjectURL(url);
        else if (!cancelled) setShown(s);
      },
      (e) => !cancelled && props.onError(errorText(e, t)),
    );
    return () => {
      cancelled = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [shownKey, rule]);

  const download = () => downloadFile(project, file.path, file.name).catch((e) => props.onError(errorText(e, t)));

  // Escape closes the panel, unless it is meant for something else (a dialog, a field being edited).
  const { onClose: closed } = props;
  const onClose = useCallback(() => {
    if (backTo.current !== null) window.scrollTo(0, backTo.current);
    closed();
  }, [closed]);
  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented || document.querySelector('[role="dialog"]')) return;
      if (e.target instanceof HTMLElement && e.target.closest('input, textarea, select')) return;
      onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const rendered = renderedKind(file.name);
  // Edit (F11): text files within EDIT_MAX_BYTES whose bytes are UTF-8, for those who may write.
  const editable = props.canEdit && content?.kind === 'text' && content.utf8 && file.size <= EDIT_MAX_BYTES;

  return (
    <aside ref={panel} className="preview" aria-label={t('preview.title')}>
      <div className="preview-head">
        <h2 title={file.name}>{file.name}</h2>
        <StarButton project={project} kind="file" path={file.path} onError={props.onError} />
        <button className="link" aria-label={t('common.close')} onClick={onClose}>
          <Icon name="close" />
        </button>
      </div>
      <dl className="meta">
        <dt>{t('preview.path')}</dt>
        <dd className="preview-path">{file.path}</dd>
        <dt>{t('preview.type')}</dt>
        <dd className="preview-type" title={file.type}>
          {t(`kind.${kindWord(file.name, file.type)}`)}
        </dd>
        <dt>{t('preview.mime')}</dt>
        <dd className="preview-mime">
          <code>{file.type}</code>
        </dd>
        <dt>{t('preview.size')}</dt>
        <dd className="preview-size">
          {formatBytes(file.size)} <small>({file.size} B)</small>
        </dd>
        <dt>{t('preview.modified')}</dt>
        <dd>{formatDate(file.modified, lang)}</dd>
        {file.createdBy && (
          <>
            <dt>{t('preview.createdBy')}</dt>
            <dd>
              <CreatedBy file={file} />
            </dd>
          </>
        )}
        <dt>{t('preview.version')}</dt>
        <dd>{file.version}</dd>
      </dl>
      <div className="preview-actions">
        <button onClick={download}>
          <Icon name="download" /> {t('files.download')}
        </button>
        {editable && !editing && !shown && (
          <button onClick={() => content?.kind === 'text' && setEditing({ text: content.text, file })}>
            <Icon name="edit" /> {t('common.edit')}
          </button>
        )}
        {rendered && content?.kind === 'text' && !editing && !shown && (
          <button className="secondary" aria-pressed={raw} onClick={() => setRaw((r) => !r)}>
            {t('preview.showRaw')}
          </button>
        )}
        <button onClick={() => setSharing(true)}>{t('share.open')}</button>
      </div>
      {sharing && (
        <Suspense fallback={null}>
          <ShareDialog project={project} file={file} canEdit={props.canEdit} onClose={() => setSharing(false)} />
        </Suspense>
      )}
      <div className="preview-body">
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        {!error && !content && !editing && <p>{t('common.loading')}</p>}
        {editing ? (
          <Suspense fallback={<p>{t('common.loading')}</p>}>
            <TextEditor
              project={project}
              file={editing.file}
              text={editing.text}
              onCancel={() => setEditing(null)}
              onSaved={() => {
                setEditing(null);
                props.onChanged();
              }}
            />
          </Suspense>
        ) : shown ? (
          <ShownVersion shown={shown} name={file.name} onBack={() => setShown(null)} />
        ) : (
          <>
            {content?.kind === 'text' && rendered && !raw && (
              <Suspense fallback={<p>{t('common.loading')}</p>}>
                <RenderedPreview project={project} path={file.path} text={content.text} />
              </Suspense>
            )}
            {content?.kind === 'text' && (!rendered || raw) && <pre className="preview-text">{content.text}</pre>}
            {content?.kind === 'image' && <img className="preview-image" src={content.url} alt={file.name} />}
            {content?.kind === 'pdf' && (
              <iframe className="preview-pdf" src={content.url + (linkedPdfPage(file.path) ? `#page=${linkedPdfPage(file.path)}` : '')} title={file.name} />
            )}
            {content?.kind === 'none' && (
              <div className="no-preview">
                <p>{content.reason === 'too_large' && content.limit ? t('preview.tooLarge', { limit: formatBytes(content.limit) }) : t('preview.none')}</p>
                <button onClick={download}>
                  <Icon name="download" /> {t('files.download')}
                </button>
              </div>
            )}
          </>
        )}
      </div>
      <VersionList
        project={project}
        file={file}
        canEdit={props.canEdit}
        canShow={rule !== null && !editing}
        canCompare={rule?.kind === 'text' && !editing}
        shown={shown?.kind === 'version' ? shown.version : null}
        onShow={(version) => setShown({ kind: 'version', version, content: null })}
        onCompare={(from, to) => setShown({ kind: 'compare', from, to, texts: null })}
        onRestored={() => {
          setShown(null);
          props.onChanged();
        }}
        onError={props.onError}
      />
    </aside>
  );
}

/** An earlier version in the panel (read-only), or the comparison of two, with the way back to the current one. */
function ShownVersion({ shown, name, onBack }: { shown: Shown; name: string; onBack: () => void }) {
  const { t } = useI18n();
  if (shown.kind === 'compare')
    return shown.texts ? (
      <Suspense fallback={<p>{t('common.loading')}</p>}>
        <VersionCompare from={{ version: shown.from, text: shown.texts[0] }} to={{ version: shown.to, text: shown.texts[1] }} onClose={onBack} />
      </Suspense>
    ) : (
      <p>{t('common.loading')}</p>
    );
  const c = shown.content;
  return (
    <section className="version-shown" aria-label={t('memory.viewing', { v: shown.version })}>
      <p className="notice warn">
        {t('memory.viewing', { v: shown.version })}{' '}
        <button className="link" onClick={onBack}>
          {t('memory.backToCurrent')}
        </button>
      </p>
      {!c && <p>{t('common.loading')}</p>}
      {c?.kind === 'text' && <pre className="preview-text">{c.text}</pre>}
      {c?.kind === 'image' && <img className="preview-image" src={c.url} alt={name} />}
      {c?.kind === 'pdf' && <iframe className="preview-pdf" src={c.url} title={name} />}
      {c?.kind === 'none' && <p>{c.reason === 'too_large' && c.limit ? t('preview.tooLarge', { limit: formatBytes(c.limit) }) : t('preview.none')}</p>}
    </section>
  );
}
