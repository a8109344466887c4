import { lazy, Suspense, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { downloadFile, filesApi, type FileInfo, type PreviewInfo } from '../../api/files.js';
import { useI18n } from '../../i18n/index.js';
import { errorText, formatBytes, formatDate } from '../../format.js';
import { CreatedBy } from './created-by.js';
import { VersionList } from './version-list.js';
import { Icon } from '../../components/icons.js';

// The share dialog is a chunk of its own, loaded when first opened: the files page is the first screen.
const ShareDialog = lazy(() => import('./share-dialog.js').then((m) => ({ default: m.ShareDialog })));

type Content = { kind: 'text'; text: string } | { kind: 'image' | 'pdf'; url: string } | { kind: 'none'; reason: PreviewInfo['reason']; limit: number | null };

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
  const [sharing, setSharing] = useState(false);

  useEffect(() => {
    let url: string | null = null;
    let cancelled = false;
    setContent(null);
    setError(null);
    (async () => {
      const info = await filesApi.previewInfo(project, file.path);
      if (info.kind === 'none') return { kind: 'none', reason: info.reason, limit: info.limit } as Content;
      const res = await filesApi.preview(project, file.path);
      if (info.kind === 'text') return { kind: 'text', text: await res.text() } as Content;
      // The blob's type is set here, not taken from the response, so only an image or a PDF can ever be shown.
      const bytes = await res.arrayBuffer();
      const type = info.kind === 'pdf' ? 'application/pdf' : /^image\/(png|jpeg|gif|webp)$/.test(info.file.type) ? info.file.type : 'application/octet-stream';
      url = URL.createObjectURL(new Blob([bytes], { type }));
      return { kind: info.kind, url } as Content;
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

  return (
    <aside ref={panel} className="preview" aria-label={t('preview.title')}>
      <div className="preview-head">
        <h2 title={file.name}>{file.name}</h2>
        <button className="link" aria-label={t('common.close')} onClick={onClose}>
          <Icon name="close" />
        </button>
      </div>
      <dl className="meta">
        <dt>{t('preview.path')}</dt>
        <dd className="preview-path">{file.path}</dd>
        <dt>{t('preview.type')}</dt>
        <dd className="preview-type">{file.type}</dd>
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
        {!error && !content && <p>{t('common.loading')}</p>}
        {content?.kind === 'text' && <pre className="preview-text">{content.text}</pre>}
        {content?.kind === 'image' && <img className="preview-image" src={content.url} alt={file.name} />}
        {content?.kind === 'pdf' && <iframe className="preview-pdf" src={content.url} title={file.name} />}
        {content?.kind === 'none' && (
          <div className="no-preview">
            <p>{content.reason === 'too_large' && content.limit ? t('preview.tooLarge', { limit: formatBytes(content.limit) }) : t('preview.none')}</p>
            <button onClick={download}>
              <Icon name="download" /> {t('files.download')}
            </button>
          </div>
        )}
      </div>
      <VersionList project={project} file={file} canEdit={props.canEdit} onRestored={props.onChanged} onError={props.onError} />
    </aside>
  );
}
