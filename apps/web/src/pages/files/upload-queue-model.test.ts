import { describe, expect, it } from 'vitest';
import { UploadQueue, type Summary, type UploadJob } from './upload-queue-model.js';

/** A runner whose jobs finish when the test says so, and reject when their signal aborts (like the XHR). */
function manualRunner() {
  const running = new Map<string, { ok: () => void; fail: (e: unknown) => void; progress: (n: number) => void; signal: AbortSignal }>();
  const started: string[] = [];
  const runner = (job: UploadJob, progress: (n: number) => void, signal: AbortSignal) =>
    new Promise<void>((ok, fail) => {
      const name = job.kind === 'file' ? job.file.name : job.name;
      started.push(name);
      running.set(name, { ok, fail, progress, signal });
      signal.addEventListener('abort', () => fail(new DOMException('cancelled', 'AbortError')));
    });
  return { runner, running, started };
}

const file = (name: string, size = 10): UploadJob => ({ kind: 'file', project: 'p', folder: 'inbox', file: new File([new Uint8Array(size)], name) });
const settle = () => new Promise((r) => setTimeout(r, 0));
const states = (q: UploadQueue) => Object.fromEntries(q.snapshot().map((i) => [i.name, i.state]));

describe('UploadQueue', () => {
  it('runs at most `concurrency` jobs at once and starts the next as one ends', async () => {
    const m = manualRunner();
    const q = new UploadQueue(m.runner, 2);
    q.add(['a', 'b', 'c', 'd'].map((n) => file(n)));
    expect(m.started).toEqual(['a', 'b']);
    expect(states(q)).toEqual({ a: 'uploading', b: 'uploading', c: 'waiting', d: 'waiting' });
    m.running.get('a')!.ok();
    await settle();
    expect(m.started).toEqual(['a', 'b', 'c']);
    expect(states(q).a).toBe('done');
  });

  it('reports progress and keeps the rows as new objects (React sees the change)', () => {
    const m = manualRunner();
    const q = new UploadQueue(m.runner);
    q.add([file('a', 100)]);
    const before = q.snapshot();
    m.running.get('a')!.progress(40);
    expect(q.snapshot()).not.toBe(before);
    expect(q.snapshot()[0]).toMatchObject({ sent: 40, size: 100, state: 'uploading' });
  });

  it('cancelling aborts the running job, marks it cancelled and lets the next start', async () => {
    const m = manualRunner();
    const q = new UploadQueue(m.runner, 1);
    q.add([file('a'), file('b')]);
    const signal = m.running.get('a')!.signal;
    q.cancel(q.snapshot()[0]!.id);
    expect(signal.aborted).toBe(true);
    await settle();
    expect(states(q)).toEqual({ a: 'cancelled', b: 'uploading' });
  });

  it('cancelling a waiting job never starts it; cancel all stops everything', async () => {
    const m = manualRunner();
    const q = new UploadQueue(m.runner, 1);
    q.add([file('a'), file('b'), file('c')]);
    q.cancel(q.snapshot()[1]!.id);
    q.cancelAll();
    await settle();
    expect(m.started).toEqual(['a']);
    expect(states(q)).toEqual({ a: 'cancelled', b: 'cancelled', c: 'cancelled' });
    expect(q.busy()).toBe(false);
  });

  it('keeps a failure with its error, and retries it on demand', async () => {
    const m = manualRunner();
    const q = new UploadQueue(m.runner);
    q.add([file('a')]);
    const refusal = { code: 'quota_exceeded' };
    m.running.get('a')!.fail(refusal);
    await settle();
    expect(q.snapshot()[0]).toMatchObject({ state: 'failed', error: refusal });
    q.retry(q.snapshot()[0]!.id);
    expect(m.started).toEqual(['a', 'a']);
    m.running.get('a')!.ok();
    await settle();
    expect(q.snapshot()[0]).toMatchObject({ state: 'done', error: undefined });
  });

  it('tells each completed file and, once idle, how the run ended; dismiss forgets the finished rows', async () => {
    const m = manualRunner();
    const q = new UploadQueue(m.runner);
    const done: string[] = [];
    const idle: Summary[] = [];
    q.onDone((i) => done.push(i.name));
    q.onIdle((s) => idle.push(s));
    q.add([file('a'), file('b'), { kind: 'folder', project: 'p', folder: 'inbox', name: 'empty' }]);
    m.running.get('a')!.ok();
    m.running.get('empty')!.ok();
    await settle();
    expect(idle).toEqual([]);
    m.running.get('b')!.fail(new Error('x'));
    await settle();
    expect(done).toEqual(['a', 'empty']);
    // The empty folder is not counted as an uploaded file.
    expect(idle).toEqual([{ done: 1, failed: 1, cancelled: 0, skipped: 0 }]);
    q.clearDone();
    expect(states(q)).toEqual({ b: 'failed' });
    q.dismiss();
    expect(q.snapshot()).toEqual([]);
  });

  it('ignores a late answer of a cancelled job', async () => {
    const m = manualRunner();
    const q = new UploadQueue(m.runner);
    q.add([file('a')]);
    const job = m.running.get('a')!;
    q.cancel(q.snapshot()[0]!.id);
    job.progress(5);
    job.ok();
    await settle();
    expect(q.snapshot()[0]).toMatchObject({ state: 'cancelled', sent: 0 });
  });

  it('shows a file left out as skipped, and remembers an answer for all within one upload only', async () => {
    // The runner stands for the conflict question: the first file of an upload answers "skip, for all".
    const q = new UploadQueue(async (job, _progress, _signal, batch) => {
      if (job.kind === 'file' && job.file.name.startsWith('first')) {
        batch.all = 'skip';
        return 'skipped';
      }
      return batch.all === 'skip' ? 'skipped' : undefined;
    }, 1);
    const idle: Summary[] = [];
    q.onIdle((s) => idle.push(s));
    q.add([file('first-a'), file('a2')]);
    q.add([file('b')]);
    await settle();
    await settle();
    expect(states(q)).toEqual({ 'first-a': 'skipped', a2: 'skipped', b: 'done' });
    expect(idle.at(-1)).toEqual({ done: 1, failed: 0, cancelled: 0, skipped: 2 });
    q.clearDone();
    expect(states(q)).toEqual({ 'first-a': 'skipped', a2: 'skipped' });
  });
});
