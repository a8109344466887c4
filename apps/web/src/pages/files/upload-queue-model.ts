/** What the queue does with one row: upload a file, or create an empty folder of a dropped tree. */
export type UploadJob = { kind: 'file'; project: string; folder: string; file: File } | { kind: 'folder'; project: string; folder: string; name: string };

/** 'skipped': the name was taken and the person chose to leave that file out. */
export type UploadState = 'waiting' | 'uploading' | 'done' | 'failed' | 'cancelled' | 'skipped';

/** What to do with a file whose name is taken in its folder. */
export type ConflictChoice = 'replace' | 'keep' | 'skip';

/**
 * The files added together (one pick, one drop, one folder): "do this for all remaining conflicts" is remembered
 * here, for this upload only.
 */
export interface UploadBatch {
  all?: ConflictChoice;
}

/** One row of the queue as the panel shows it; a new object on every change (React compares by identity). */
export interface UploadItem {
  id: number;
  job: UploadJob;
  batch: UploadBatch;
  /** The name shown: the file's or folder's own name. */
  name: string;
  size: number;
  sent: number;
  state: UploadState;
  /** The refusal, for a failed row (shown from its code). */
  error?: unknown;
}

/**
 * Runs one job; reports bytes sent; answers 'skipped' for a file left out; must reject (an AbortError will do)
 * when `signal` aborts.
 */
type Runner = (job: UploadJob, onProgress: (sent: number) => void, signal: AbortSignal, batch: UploadBatch) => Promise<void | 'skipped'>;

/** How the last run of the queue ended, told when nothing is waiting or running any more. */
export interface Summary {
  done: number;
  failed: number;
  cancelled: number;
  skipped: number;
}

const finished = (s: UploadState) => s === 'done' || s === 'failed' || s === 'cancelled' || s === 'skipped';

/**
 * The upload queue of the Files page: a few jobs at a time (browsers allow six connections per host, and the
 * page must stay usable), each cancellable, failed ones retried on demand. It knows nothing of React or HTTP:
 * `run` does the work, and the page subscribes.
 *
 * @example
 * const q = new UploadQueue((job, progress, signal) => uploadFile(job.project, job.folder, job.file, { onProgress: progress, signal }));
 * q.add([{ kind: 'file', project: 'default', folder: 'reports', file }]);
 */
export class UploadQueue {
  private items: UploadItem[] = [];
  private readonly controllers = new Map<number, AbortController>();
  private readonly listeners = new Set<() => void>();
  private readonly doneListeners = new Set<(item: UploadItem) => void>();
  private readonly idleListeners = new Set<(s: Summary) => void>();
  private nextId = 1;
  private holding = false;
  // Counts since the queue was last idle: what "Uploaded N file(s)" reports.
  private run: Summary = { done: 0, failed: 0, cancelled: 0, skipped: 0 };

  constructor(
    private readonly runner: Runner,
    private readonly concurrency = 3,
  ) {}

  /** The rows, oldest first; the same array until something changes (for useSyncExternalStore). */
  readonly snapshot = (): readonly UploadItem[] => this.items;

  /** Calls `fn` on every change; returns the unsubscribe function. */
  readonly subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  /** Calls `fn` when a row completes (to refresh the listing). */
  onDone(fn: (item: UploadItem) => void): () => void {
    this.doneListeners.add(fn);
    return () => this.doneListeners.delete(fn);
  }

  /** Calls `fn` when the last running row finishes. */
  onIdle(fn: (s: Summary) => void): () => void {
    this.idleListeners.add(fn);
    return () => this.idleListeners.delete(fn);
  }

  /** Whether anything is waiting or running (leaving the page would lose it). */
  busy(): boolean {
    return this.items.some((i) => !finished(i.state));
  }

  /** Adds the files of one upload (a pick, a drop): they share the answers given "for all remaining conflicts". */
  add(jobs: readonly UploadJob[]): void {
    const batch: UploadBatch = {};
    const added = jobs.map<UploadItem>((job) => ({
      id: this.nextId++,
      job,
      batch,
      name: job.kind === 'file' ? job.file.name : job.name,
      size: job.kind === 'file' ? job.file.size : 0,
      sent: 0,
      state: 'waiting',
    }));
    this.items = [...this.items, ...added];
    this.pump();
  }

  cancel(id: number): void {
    const item = this.items.find((i) => i.id === id);
    if (!item || finished(item.state)) return;
    this.controllers.get(id)?.abort();
    this.controllers.delete(id);
    this.finish(id, { state: 'cancelled' });
  }

  cancelAll(): void {
    // Held while cancelling, or each cancellation would start the next waiting row.
    this.holding = true;
    try {
      for (const i of this.items) this.cancel(i.id);
    } finally {
      this.holding = false;
    }
  }

  retry(id: number): void {
    const item = this.items.find((i) => i.id === id);
    if (!item || (item.state !== 'failed' && item.state !== 'cancelled' && item.state !== 'skipped')) return;
    // A retried file is asked about afresh: an answer for all of its upload is not one for this second try.
    this.update(id, { state: 'waiting', sent: 0, error: undefined, batch: {} });
    this.pump();
  }

  /** Forgets the finished rows (the panel's close button); running ones stay. */
  dismiss(): void {
    this.setItems(this.items.filter((i) => !finished(i.state)));
  }

  /** Forgets the rows that completed, keeping failures and cancellations for the person to see. */
  clearDone(): void {
    this.setItems(this.items.filter((i) => i.state !== 'done'));
  }

  private pump(): void {
    if (this.holding) return this.emit();
    let running = this.items.filter((i) => i.state === 'uploading').length;
    for (const item of this.items) {
      if (running >= this.concurrency) break;
      if (item.state !== 'waiting') continue;
      running++;
      this.start(item);
    }
    this.emit();
  }

  private start(item: UploadItem): void {
    const controller = new AbortController();
    this.controllers.set(item.id, controller);
    this.update(item.id, { state: 'uploading' }, false);
    const onProgress = (sent: number) => {
      if (this.controllers.get(item.id) === controller) this.update(item.id, { sent });
    };
    this.runner(item.job, onProgress, controller.signal, item.batch).then(
      (outcome) => {
        if (this.controllers.get(item.id) !== controller) return;
        this.controllers.delete(item.id);
        this.finish(item.id, outcome === 'skipped' ? { state: 'skipped' } : { state: 'done', sent: item.size });
      },
      (error: unknown) => {
        // A cancelled row was already marked; its runner's rejection is only the echo.
        if (this.controllers.get(item.id) !== controller) return;
        this.controllers.delete(item.id);
        this.finish(item.id, { state: 'failed', error });
      },
    );
  }

  private finish(id: number, change: Partial<UploadItem>): void {
    this.update(id, change, false);
    const state = change.state as 'done' | 'failed' | 'cancelled' | 'skipped';
    const item = this.items.find((i) => i.id === id);
    // "Uploaded N file(s)": the empty folders of a dropped tree are not counted as files.
    if (state !== 'done' || item?.job.kind === 'file') this.run[state]++;
    if (state === 'done' && item) for (const fn of this.doneListeners) fn(item);
    this.pump();
    if (!this.busy()) {
      const summary = this.run;
      this.run = { done: 0, failed: 0, cancelled: 0, skipped: 0 };
      for (const fn of this.idleListeners) fn(summary);
    }
  }

  private update(id: number, change: Partial<UploadItem>, emit = true): void {
    this.items = this.items.map((i) => (i.id === id ? { ...i, ...change } : i));
    if (emit) this.emit();
  }

  private setItems(items: UploadItem[]): void {
    if (items.length === this.items.length) return;
    this.items = items;
    this.emit();
  }

  private emit(): void {
    for (const fn of this.listeners) fn();
  }
}
