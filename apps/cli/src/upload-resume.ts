import { createHash } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * What identifies a local file for resuming its upload: the same path, size and modification time mean the
 * same bytes (an edited file starts a new upload).
 *
 * @example
 * resumeKeyOf('video.mp4'); // '/home/ann/video.mp4:1073741824:1733300000000'
 */
export function resumeKeyOf(local: string): string {
  const st = statSync(local);
  return `${realpathSync(local)}:${st.size}:${Math.trunc(st.mtimeMs)}`;
}

/**
 * Where the CLI remembers the upload id of a large upload in flight, so running the same `stoa files put`
 * again after an interruption sends only the parts that had not arrived. One small file per upload under
 * `$XDG_STATE_HOME/stoa/uploads` (`~/.local/state/stoa/uploads`), removed once the upload is finished.
 *
 * @example
 * const saved = uploadResumeStore(process.env).forUpload([url, project, path, resumeKeyOf(local)]);
 * const uploadId = await saved.load();
 */
export function uploadResumeStore(env: NodeJS.ProcessEnv) {
  const dir = join(env.XDG_STATE_HOME || join(env.HOME || homedir(), '.local', 'state'), 'stoa', 'uploads');
  return {
    forUpload(identity: string[]) {
      const file = join(dir, `${createHash('sha256').update(JSON.stringify(identity)).digest('hex').slice(0, 32)}.json`);
      return {
        /** The upload in flight, and when it was being finished, the file's version before (0: none). */
        async load(): Promise<{ uploadId: string; finishingFrom?: number } | undefined> {
          try {
            const saved = JSON.parse(await readFile(file, 'utf8')) as { uploadId?: unknown; finishingFrom?: unknown };
            if (typeof saved.uploadId !== 'string') return undefined;
            return { uploadId: saved.uploadId, ...(typeof saved.finishingFrom === 'number' ? { finishingFrom: saved.finishingFrom } : {}) };
          } catch {
            return undefined;
          }
        },
        /** Notes the upload; `finishingFrom`: every part arrived and finishing starts from that version of the file. */
        async save(uploadId: string, finishingFrom?: number): Promise<void> {
          await mkdir(dir, { recursive: true, mode: 0o700 });
          // Whole or not at all: another run reading it meanwhile never sees half a note.
          const tmp = `${file}.${process.pid}.tmp`;
          await writeFile(tmp, JSON.stringify({ uploadId, finishingFrom, savedAt: new Date().toISOString() }), { mode: 0o600 });
          await rename(tmp, file);
        },
        async forget(): Promise<void> {
          await rm(file, { force: true });
        },
      };
    },
  };
}
