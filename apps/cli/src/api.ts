import type { Readable } from 'node:stream';
import type { RouteDef, RouteInput, RouteOutput } from '@stoa/contract';
import type { RouteRef } from '@stoa/contract/route-ref';

/**
 * What every CLI command talks to. Local mode runs the server's handlers in-process on a data folder; remote
 * mode sends the same route calls over HTTP. Commands never know which.
 */
export interface Api {
  readonly mode: 'local' | 'remote';
  /** The project commands act on (from --project; default project otherwise). */
  readonly project: string;
  /**
   * Calls a route by its reference (`routeIndex`, which carries no zod schemas: a command that only talks to a
   * server never builds them) or by its definition.
   */
  call<R extends RouteDef>(route: R | RouteRef<R>, input: RouteInput<R>): Promise<RouteOutput<R>>;
  /**
   * Uploads a file's bytes; large ones go through a direct upload in parts (F8), chosen automatically, which
   * resumes an interrupted try of the same local file (`resumeKey`: what identifies it, e.g. its real path,
   * size and modification time).
   */
  upload(
    path: string,
    source: (range?: { start: number; end: number }) => Readable,
    size: number,
    opts?: { expectedVersion?: number | undefined; onProgress?: (sent: number) => void; resumeKey?: string },
  ): Promise<unknown>;
  /** Opens a file's bytes for download. */
  download(path: string, opts?: { version?: number }): Promise<{ stream: Readable; size: number; name: string }>;
  close(): Promise<void>;
}
