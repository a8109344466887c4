import { useEffect, useSyncExternalStore } from 'react';
import { useWarnBeforeLeaving } from '../../warn-before-leaving.js';
import { ApiError } from '../../api/client.js';
import { filesApi } from '../../api/files.js';
import { uploadFile } from '../../api/upload.js';
import { useI18n } from '../../i18n/index.js';
import { errorText, formatBytes } from '../../format.js';
import { Icon } from '../../components/icons.js';
import { jobsFor, pickedFromDrop, pickedFromInput, type DropItem } from './dropped-tree.js';
import { UploadQueue, type UploadItem, type UploadJob } from './upload-queue-model.js';

const join = (dir: string, name: string) => [dir, name].filter(Boolean).join('/');

function run(job: UploadJob, onProgress: (sent: number) => void, signal: AbortSignal): Promise<void> {
  if (job.kind === 'file') return uploadFile(job.project, job.folder, job.file, { onProgress, signal }).then(() => undefined);
  // An empty folder of a dropped tree; one that is already there is fine.
  return filesApi.createFolder(job.project, join(job.folder, job.name.normalize('NFC'))).then(
    () => undefined,
    (e: unknown) => {
      if (!(e instanceof ApiError && e.code === 'already_exists')) throw e;
    },
  );
}

// One queue for the whole tab, made on first use: it outlives a visit to another page, so coming back to Files
// shows the uploads still running.
let shared: UploadQueue | null = null;
const theQueue = () => (shared ??= new UploadQueue(run));

/**
 * The upload queue for the Files page: adds what was picked or dropped into a folder, tells the page when files
 * land (to reload the listing) and when everything has finished, and makes the browser ask before the tab is
 * left while uploads run.
 *
 * @example
 * const uploads = useUploads({ onDone: refresh, onIdle: (n) => say(n) });
 * <input type="file" onChange={(e) => uploads.addFiles(pid, folder, e.target.files)} />
 */
export function useUploads(on: { onDone: () => void; onIdle: (uploaded: number) => void }) {
  const queue = theQueue();
  const items = useSyncExternalStore(queue.subscribe, queue.snapshot);
  const { onDone, onIdle } = on;
  useEffect(() => {
    // One reload of the listing for a burst of small files landing together, not one per file.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = queue.onDone(() => {
      timer ??= setTimeout(() => {
        timer = undefined;
        onDone();
      }, 250);
    });
    return () => {
      off();
      clearTimeout(timer);
    };
  }, [queue, onDone]);
  useEffect(
    () =>
      queue.onIdle((s) => {
        // All went well: the rows go, the notice says how many. Otherwise the panel stays to show what did not.
        if (s.failed === 0 && s.cancelled === 0 && !queue.snapshot().some((i) => i.state !== 'done')) queue.clearDone();
        if (s.done > 0) onIdle(s.done);
      }),
    [queue, onIdle],
  );
  const busy = items.some((i) => i.state === 'waiting' || i.state === 'uploading');
  useWarnBeforeLeaving(busy);
  return {
    queue,
    items,
    /** Files from the Upload button, or a folder from the Upload folder button (webkitRelativePath). */
    addFiles: (project: string, folder: string, list: FileList | null) => queue.add(jobsFor(project, folder, pickedFromInput([...(list ?? [])]))),
    /** A drop of files and folders; call it from the drop handler itself (the browser empties it afterwards). */
    addDrop: (project: string, folder: string, items: DataTransferItemList) =>
      pickedFromDrop([...items] as unknown as DropItem[]).then((p) => queue.add(jobsFor(project, folder, p))),
  };
}

function Row({ item, root }: { item: UploadItem; root: string }) {
  const { t } = useI18n();
  const queue = theQueue();
  const target = item.job.folder || root;
  const label = t('files.uploadProgress', { name: item.name });
  const open = item.state === 'waiting' || item.state === 'uploading';
  return (
    <li className={`upload-row ${item.state}`} data-name={item.name} data-state={item.state}>
      <span className="upload-name" title={join(item.job.folder, item.name)}>
        {item.job.kind === 'folder' && <Icon name="folder" />} {item.name}
      </span>
      <span className="upload-target muted">{t('files.uploadTo', { folder: target })}</span>
      <span className="upload-size muted">{item.job.kind === 'file' ? formatBytes(item.size) : t('files.uploadFolderItem')}</span>
      {item.job.kind === 'file' && item.state === 'uploading' ? (
        <progress aria-label={label} max={Math.max(item.size, 1)} value={Math.min(item.sent, item.size)} />
      ) : (
        <progress aria-label={label} max={1} value={item.state === 'done' ? 1 : 0} />
      )}
      <span className="upload-state">
        {t(`files.uploadState.${item.state}`)}
        {item.state === 'failed' && `: ${errorText(item.error, t)}`}
      </span>
      {open && (
        <button type="button" className="link" aria-label={t('files.uploadCancel', { name: item.name })} onClick={() => queue.cancel(item.id)}>
          {t('common.cancel')}
        </button>
      )}
      {(item.state === 'failed' || item.state === 'cancelled') && (
        <button type="button" className="link" aria-label={t('files.uploadRetry', { name: item.name })} onClick={() => queue.retry(item.id)}>
          {t('files.uploadRetryButton')}
        </button>
      )}
    </li>
  );
}

/**
 * The panel of the upload queue: a row per file (target folder, size, progress, state, cancel or retry),
 * "Cancel all" while uploads run, and a close button once everything has finished.
 *
 * @example
 * <UploadQueuePanel items={uploads.items} />
 */
export function UploadQueuePanel({ items }: { items: readonly UploadItem[] }) {
  const { t } = useI18n();
  if (!items.length) return null;
  const queue = theQueue();
  const finished = items.filter((i) => i.state === 'done' || i.state === 'failed' || i.state === 'cancelled').length;
  const busy = finished < items.length;
  return (
    <section className="upload-queue" aria-labelledby="upload-queue-title">
      <div className="upload-head row">
        <h2 id="upload-queue-title">{t('files.uploadQueue')}</h2>
        <span className="muted" role="status">
          {t('files.uploadSummary', { done: finished, total: items.length })}
        </span>
        <span className="spacer" />
        {busy ? (
          <button type="button" onClick={() => queue.cancelAll()}>
            {t('files.uploadCancelAll')}
          </button>
        ) : (
          <button type="button" className="link" aria-label={t('files.uploadDismiss')} onClick={() => queue.dismiss()}>
            <Icon name="close" />
          </button>
        )}
      </div>
      <ul className="upload-rows">
        {items.map((i) => (
          <Row key={i.id} item={i} root={t('files.root')} />
        ))}
      </ul>
    </section>
  );
}
