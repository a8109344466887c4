import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useWarnBeforeLeaving } from '../../warn-before-leaving.js';
import { ApiError } from '../../api/client.js';
import { filesApi } from '../../api/files.js';
import { uploadFile } from '../../api/upload.js';
import { useI18n } from '../../i18n/index.js';
import { errorText, formatBytes } from '../../format.js';
import { Icon } from '../../components/icons.js';
import { useFocusTrap } from '../../components/focus-trap.js';
import { jobsFor, pickedFromDrop, pickedFromInput, type DropItem } from './dropped-tree.js';
import { UploadQueue, type ConflictChoice, type UploadBatch, type UploadItem, type UploadJob } from './upload-queue-model.js';

const join = (dir: string, name: string) => [dir, name].filter(Boolean).join('/');

/**
 * The n-th "keep both" name of a file: "report.pdf" → "report (1).pdf", "notes" → "notes (1)", ".env" → ".env (1)".
 *
 * @example
 * numberedName('report.pdf', 2) // 'report (2).pdf'
 */
function numberedName(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
}

/** A question about one taken name, waiting for the person's answer. */
interface Question {
  name: string;
  folder: string;
  version: number;
  batch: UploadBatch;
  answer: (choice: ConflictChoice) => void;
}

// The questions of the tab's uploads, asked one at a time (several files may meet a taken name at once).
let questions: readonly Question[] = [];
const questionListeners = new Set<() => void>();
const setQuestions = (next: readonly Question[]) => {
  questions = next;
  for (const fn of questionListeners) fn();
};
const subscribeQuestions = (fn: () => void) => {
  questionListeners.add(fn);
  return () => questionListeners.delete(fn);
};

/** Asks what to do with a taken name, unless the upload already has an answer for all; a cancel drops the question. */
function ask(q: Omit<Question, 'answer'>, signal: AbortSignal): Promise<ConflictChoice> {
  if (q.batch.all) return Promise.resolve(q.batch.all);
  return new Promise((resolve, reject) => {
    const question: Question = {
      ...q,
      answer: (choice) => {
        signal.removeEventListener('abort', drop);
        resolve(choice);
      },
    };
    const drop = () => {
      setQuestions(questions.filter((x) => x !== question));
      reject(new DOMException('the upload was cancelled', 'AbortError'));
    };
    signal.addEventListener('abort', drop, { once: true });
    setQuestions([...questions, question]);
  });
}

/** The person's answer; "for all" answers the upload's other waiting questions too, and those still to come. */
function answer(q: Question, choice: ConflictChoice, all: boolean): void {
  if (all) q.batch.all = choice;
  const answered = questions.filter((x) => x === q || (all && x.batch === q.batch));
  setQuestions(questions.filter((x) => !answered.includes(x)));
  for (const x of answered) x.answer(choice);
}

/** How many "name (n).ext" are tried for one kept file. */
const MAX_COPIES = 1000;

const taken = (e: unknown): e is ApiError => e instanceof ApiError && e.code === 'version_conflict';

/**
 * Uploads a file without ever writing over one it did not ask about: each write names the version it expects
 * (0: none), which the server checks in its transaction, so a file that an agent created after the upload began
 * is still met by the question. Replace writes over exactly the version the person was asked about (if it moved
 * on meanwhile, they are asked again); keep both takes the next free "name (n).ext"; skip leaves the file out.
 */
async function uploadAsking(job: Extract<UploadJob, { kind: 'file' }>, onProgress: (sent: number) => void, signal: AbortSignal, batch: UploadBatch) {
  let expectedVersion = 0;
  let copy = 0;
  for (let attempt = 0; ; attempt++) {
    const name = copy ? numberedName(job.file.name, copy) : undefined;
    try {
      await uploadFile(job.project, job.folder, job.file, { onProgress, signal, name, expectedVersion });
      return;
    } catch (e) {
      if (!taken(e) || attempt > MAX_COPIES) throw e;
      onProgress(0);
      if (copy) {
        // Taken too (by an earlier "keep both"): the next number. A folder holding thousands of copies is a refusal.
        if (++copy > MAX_COPIES) throw e;
        continue;
      }
      const version = Number(e.details.currentVersion) || 0;
      // Gone since (the version asked to replace was deleted): nothing to ask about any more.
      if (version === 0) {
        expectedVersion = 0;
        continue;
      }
      const choice = await ask({ name: job.file.name, folder: job.folder, version, batch }, signal);
      if (choice === 'skip') return 'skipped' as const;
      if (choice === 'keep') {
        copy = 1;
        expectedVersion = 0;
      } else expectedVersion = version;
    }
  }
}

function run(job: UploadJob, onProgress: (sent: number) => void, signal: AbortSignal, batch: UploadBatch): Promise<void | 'skipped'> {
  if (job.kind === 'file') return uploadAsking(job, onProgress, signal, batch);
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
      {(item.state === 'failed' || item.state === 'cancelled' || item.state === 'skipped') && (
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
  const waiting = useSyncExternalStore(subscribeQuestions, () => questions);
  if (!items.length) return null;
  const queue = theQueue();
  const finished = items.filter((i) => i.state === 'done' || i.state === 'failed' || i.state === 'cancelled' || i.state === 'skipped').length;
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
      {waiting[0] && <ConflictQuestion key={`${waiting[0].folder}/${waiting[0].name}`} q={waiting[0]} more={waiting.length - 1} />}
    </section>
  );
}

/**
 * "report.pdf already exists in reports (version 3)": replace it (a new version), keep both (the upload takes the
 * next free name), or skip it; the tick answers the same for the rest of this upload's taken names.
 */
function ConflictQuestion({ q, more }: { q: Question; more: number }) {
  const { t } = useI18n();
  const box = useRef<HTMLDivElement>(null);
  const [all, setAll] = useState(false);
  const pick = (choice: ConflictChoice) => answer(q, choice, all);
  useFocusTrap(box, () => pick('skip'));
  return (
    <div className="modal-back">
      <div
        ref={box}
        className="modal upload-conflict"
        role="dialog"
        aria-modal="true"
        aria-labelledby="upload-conflict-title"
        aria-describedby="upload-conflict-text"
      >
        <h2 id="upload-conflict-title">{t('files.uploadConflictTitle')}</h2>
        <p id="upload-conflict-text">{t('files.uploadConflictText', { name: q.name, folder: q.folder || t('files.root'), v: q.version })}</p>
        <div className="modal-actions upload-conflict-actions">
          <button type="button" onClick={() => pick('replace')}>
            {t('files.uploadReplace')}
          </button>
          <button type="button" onClick={() => pick('keep')}>
            {t('files.uploadKeepBoth')}
          </button>
          <button type="button" onClick={() => pick('skip')}>
            {t('files.uploadSkip')}
          </button>
        </div>
        <label className="check-label">
          <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} /> {t('files.uploadForAll')}
          {more > 0 && <small className="muted"> {t('files.uploadMoreWaiting', { n: more })}</small>}
        </label>
      </div>
    </div>
  );
}
