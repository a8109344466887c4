import { formatBytes } from '@stoa/contract/format';

/** Files at least this large show a progress bar on a terminal. */
const PROGRESS_MIN_BYTES = 4 * 1024 * 1024;

/**
 * A progress bar on stderr, only when stderr is a terminal and the transfer is large (so scripts and --json
 * output stay clean).
 */
export function progressBar(label: string, total: number): { update(done: number): void; finish(): void } {
  if (!process.stderr.isTTY || total < PROGRESS_MIN_BYTES) return { update() {}, finish() {} };
  let last = 0;
  // What was shown only grows: a part sent again is not counted twice.
  let shown = 0;
  const draw = (done: number) => {
    const width = 30;
    const frac = total > 0 ? Math.min(1, done / total) : 1;
    const bar = '█'.repeat(Math.round(frac * width)).padEnd(width, '░');
    process.stderr.write(`\r${label} ${bar} ${(frac * 100).toFixed(0).padStart(3)}% ${formatBytes(done)} / ${formatBytes(total)}`);
  };
  return {
    update(done) {
      if (done < shown) return;
      shown = done;
      const now = Date.now();
      if (now - last > 100) {
        last = now;
        draw(done);
      }
    },
    finish() {
      draw(total);
      process.stderr.write('\n');
    },
  };
}
