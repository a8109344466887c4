import type { filesRoutes, RouteOutput } from '@stoa/contract';
import { StoaError } from '@stoa/contract/errors';
import { routeIndex } from '@stoa/contract/route-index';
import { Readable } from 'node:stream';
import type { StoaClient } from './client.js';

type FileInfo = RouteOutput<typeof filesRoutes.finishUpload>;
type PartTarget = RouteOutput<typeof filesRoutes.uploadParts>['parts'][number];

/**
 * What {@link uploadInParts} needs: where the file goes, how to read any span of it again, and (to resume) the
 * upload id of an earlier, interrupted try.
 */
export interface PartUploadOptions {
  project: string;
  path: string;
  size: number;
  /** Refuse (version_conflict) unless the file is at this version (0: new), when starting and when finishing. */
  expectedVersion?: number | undefined;
  /** A fresh stream of `size` bytes from `offset` (called again when a part is retried). */
  openPart(offset: number, size: number): Readable;
  /** The upload id of an earlier try: its parts that arrived are not sent again. Unknown or expired: start anew. */
  resume?: string | undefined;
  /** Called once the upload id is known, before any byte is sent: keep it to resume after a crash. */
  onStarted?(uploadId: string): void | Promise<void>;
  /** Called when every part has arrived, just before finishing: a crash after it may have committed the file. */
  onFinishing?(uploadId: string): void | Promise<void>;
  /** Ask for parts of at most this many bytes (the server's STOA_UPLOAD_PART_BYTES otherwise). */
  partBytes?: number | undefined;
  /** Bytes that have arrived, including the parts of an earlier try. */
  onProgress?(bytes: number): void;
  /** Parts in flight at once (4). */
  concurrency?: number;
  /** Tries per part before giving up (4); the upload stays resumable. */
  tries?: number;
}

/** Refusals that sending the same part again cannot fix. */
function isFinal(e: unknown): boolean {
  return e instanceof PartTooLargeError || (e instanceof StoaError && !['internal', 'unavailable', 'rate_limited'].includes(e.code));
}

/** A part the store (or a proxy before it) refused as too large (HTTP 413, EntityTooLarge): smaller parts may pass. */
class PartTooLargeError extends Error {
  constructor(
    readonly part: number,
    readonly partSize: number,
  ) {
    super(`part ${part} of ${partSize} bytes was refused as too large (HTTP 413)`);
  }
}

/**
 * The connection was cut while the body was still going out (EPIPE, a reset). A store or proxy that refuses a body
 * as too large often answers 413 at once and closes, and the client may see the cut before it reads the answer;
 * when that happens to one part twice in a row while the server still answers, the part is taken as refused for its
 * size (the upload starts again in smaller parts).
 */
function cutWhileSending(e: unknown): boolean {
  for (let c: unknown = e, depth = 0; c && depth < 4; c = (c as { cause?: unknown }).cause, depth++) {
    const code = (c as { code?: unknown }).code;
    if (code === 'EPIPE' || code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return true;
  }
  return false;
}

/** Counts bytes as they leave, for progress; a retried part counts from zero again. */
function counted(stream: Readable, onBytes: (n: number) => void): Readable {
  stream.on('data', (c: Buffer) => onBytes(c.length));
  return stream;
}

/** Parts are not halved below this: a store that refuses them takes almost nothing. */
const MIN_TRY_PART = 256 * 1024;

/**
 * Sends a large file as a direct upload in parts (F8, B8): each part goes to object storage through its own
 * presigned URL (or to the server on local disk), a failed part is sent again alone, and an upload interrupted
 * by a crash or a lost connection resumes from the parts that arrived — by this process or another one that
 * kept the upload id. Finishing verifies the whole (size, sha256) on the server and commits one version.
 *
 * A part refused as too large (some stores and proxies take less than the server's STOA_UPLOAD_PART_BYTES)
 * starts the upload again with parts half the size, as far as the server allows (5 MiB on object storage);
 * when no smaller part is allowed the error names STOA_UPLOAD_PART_BYTES.
 * Progress only ever grows: a part sent again, or an upload started again smaller, is not counted twice.
 *
 * @example
 * const file = await uploadInParts(stoa, {
 *   project: 'default', path: 'video/raw.mp4', size,
 *   openPart: (offset, n) => createReadStream(local, { start: offset, end: offset + n - 1 }),
 *   resume: saved?.uploadId, onStarted: (id) => save({ uploadId: id }),
 * });
 */
export async function uploadInParts(client: StoaClient, opts: PartUploadOptions): Promise<FileInfo> {
  const { project, size } = opts;
  let high = -1;
  const report = (n: number) => {
    if (n <= high) return;
    high = n;
    opts.onProgress?.(n);
  };
  const earlier = opts.resume ? await resumable(client, opts) : null;
  if (earlier && 'finished' in earlier) return earlier.finished;
  let status: Status | null = earlier;
  let partBytes = opts.partBytes;
  for (;;) {
    if (!status) {
      const ticket = await client.call(routeIndex.files.startUpload, {
        project,
        path: opts.path,
        size,
        parts: true,
        expectedVersion: opts.expectedVersion,
        ...(partBytes ? { partBytes } : {}),
      });
      status = { ...ticket, received: [], receivedBytes: 0 };
    }
    await opts.onStarted?.(status.uploadId);
    try {
      await sendMissing(client, opts, status, report);
    } catch (e) {
      if (!(e instanceof PartTooLargeError)) throw e;
      await client.call(routeIndex.files.abortUpload, { project, uploadId: status.uploadId }).catch(() => undefined);
      // Half the size, as far as the server allows (5 MiB on object storage): no smaller means no way through.
      partBytes = Math.floor(e.partSize / 2);
      status = null;
      if (partBytes >= MIN_TRY_PART) {
        const ticket = await client.call(routeIndex.files.startUpload, {
          project,
          path: opts.path,
          size,
          parts: true,
          expectedVersion: opts.expectedVersion,
          partBytes,
        });
        if ((ticket.partSize ?? Infinity) < e.partSize) {
          status = { ...ticket, received: [], receivedBytes: 0 };
          continue;
        }
        await client.call(routeIndex.files.abortUpload, { project, uploadId: ticket.uploadId }).catch(() => undefined);
      }
      throw new StoaError(
        'too_large',
        `${e.message}, and it cannot be sent in smaller parts: lower STOA_UPLOAD_PART_BYTES on the server to what the store takes, or raise the request size limit of the store (or of the proxy in front of it)`,
      );
    }
    await opts.onFinishing?.(status.uploadId);
    return client.call(routeIndex.files.finishUpload, { project, uploadId: status.uploadId });
  }
}

type Status = RouteOutput<typeof filesRoutes.uploadStatus>;

/** Sends the parts of `status` that have not arrived, `concurrency` at a time; stops at the first part too large. */
async function sendMissing(client: StoaClient, opts: PartUploadOptions, status: Status, report: (n: number) => void): Promise<void> {
  const { project } = opts;
  const uploadId = status.uploadId;
  let arrived = status.receivedBytes;
  // Bytes of parts on their way, by part: progress is what arrived plus what is under way, never less than before.
  const underway = new Map<number, number>();
  const progress = () => report(arrived + [...underway.values()].reduce((a, b) => a + b, 0));
  progress();

  const have = new Set(status.received.map((p) => p.partNumber));
  const missing: number[] = [];
  for (let n = 1; n <= (status.partCount ?? 0); n++) if (!have.has(n)) missing.push(n);
  const targets = new Map<number, PartTarget>();
  const fetchTargets = async (numbers: number[]): Promise<void> => {
    for (let i = 0; i < numbers.length; i += 1000) {
      const { parts } = await client.call(routeIndex.files.uploadParts, { project, uploadId, partNumbers: numbers.slice(i, i + 1000) });
      for (const t of parts) targets.set(t.partNumber, t);
    }
  };
  if (missing.length > 0) await fetchTargets(missing.slice(0, 1000));

  let stopped = false;
  const serverAnswers = () =>
    client.call(routeIndex.files.uploadStatus, { project, uploadId }).then(
      () => true,
      () => false,
    );
  const sendPart = async (n: number): Promise<void> => {
    const tries = opts.tries ?? 4;
    let cuts = 0;
    for (let attempt = 1; ; attempt++) {
      underway.set(n, 0);
      let size = Infinity;
      try {
        if (!targets.has(n)) await fetchTargets([n]);
        const t = targets.get(n)!;
        size = t.size;
        const body = counted(opts.openPart(t.offset, t.size), (b) => {
          underway.set(n, (underway.get(n) ?? 0) + b);
          progress();
        });
        if (t.url) {
          const res = await fetch(t.url, {
            method: 'PUT',
            headers: { ...t.headers, 'content-length': String(t.size) },
            body: Readable.toWeb(body) as unknown as BodyInit,
            duplex: 'half',
          } as RequestInit);
          const answer = await res.text();
          if (res.status === 413 || /<Code>EntityTooLarge<\/Code>/.test(answer)) throw new PartTooLargeError(n, status.partSize ?? t.size);
          const etag = res.headers.get('etag');
          // A presigned URL that expired meanwhile: ask for a fresh one on the next try.
          if (!res.ok || !etag) throw new Error(`object storage refused part ${n} (HTTP ${res.status})`);
          await client.call(routeIndex.files.partSent, { project, uploadId, partNumber: n, etag });
        } else {
          try {
            await client.send(routeIndex.files.sendUploadPart, { project, uploadId, partNumber: n }, body, { size: t.size });
          } catch (e) {
            // A proxy before the server that takes less than a part answers 413 without a problem body.
            if (e instanceof StoaError && e.message === 'HTTP 413') throw new PartTooLargeError(n, status.partSize ?? t.size);
            throw e;
          }
        }
        underway.delete(n);
        arrived += t.size;
        progress();
        return;
      } catch (e) {
        underway.delete(n);
        targets.delete(n);
        cuts = cutWhileSending(e) ? cuts + 1 : 0;
        // Cut twice while the server still answers (a restart or a dropped network would fail this call too).
        if (cuts >= 2 && size !== Infinity && (await serverAnswers())) throw new PartTooLargeError(n, status.partSize ?? size);
        if (isFinal(e) || attempt >= tries) throw e;
        await new Promise((r) => setTimeout(r, 200 * 2 ** attempt));
      }
    }
  };

  const queue = [...missing];
  const workers = Array.from({ length: Math.max(1, Math.min(opts.concurrency ?? 4, queue.length)) }, async () => {
    for (let n = queue.shift(); n !== undefined && !stopped; n = queue.shift()) {
      try {
        await sendPart(n);
      } catch (e) {
        stopped = true;
        throw e;
      }
    }
  });
  // Every worker ends before the caller acts on a failure (starting again smaller must not race a part in flight).
  const results = await Promise.allSettled(workers);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * The status of the earlier try when it is still pending and is this very upload; its file when it was
 * finished already (the answer was lost: a crash, a dropped connection), so finishing it again answers its file
 * instead of making a second version; null to start anew.
 */
async function resumable(client: StoaClient, opts: PartUploadOptions) {
  const uploadId = opts.resume!;
  try {
    const s = await client.call(routeIndex.files.uploadStatus, { project: opts.project, uploadId });
    return s.path === opts.path.normalize('NFC').replace(/^\/+/, '') && s.size === opts.size && s.partSize ? s : null;
  } catch (e) {
    if (!(e instanceof StoaError && e.code === 'not_found')) throw e;
  }
  try {
    const file = await client.call(routeIndex.files.finishUpload, { project: opts.project, uploadId });
    return file.path === opts.path.normalize('NFC').replace(/^\/+/, '') && file.size === opts.size ? { finished: file } : null;
  } catch (e) {
    if (e instanceof StoaError && (e.code === 'not_found' || e.code === 'bad_request')) return null;
    throw e;
  }
}
