import type { EmbeddingProvider } from './embeddings/provider.js';
import type { Kysely } from 'kysely';
import type { BlobStore } from '@stoa/blob';
import type { DB, StoaDb } from '@stoa/db';
import type { StoaConfig } from './config.js';
import type { Actor } from './actors.js';
import type { ProjectRow } from './projects/project-row.js';
import { refusalOfDbError } from './db-guard.js';

/**
 * The shapes every operation is written against. At run time this module imports only db-guard.ts, which
 * imports no module of the core, so any module may import it; `openPlatform` (open-platform.ts) builds the values.
 */

/** The long-lived parts every operation uses: database, blob store, configuration, clock and hooks. */
export interface Platform {
  db: StoaDb;
  blobs: BlobStore;
  config: StoaConfig;
  clock: () => Date;
  hooks: Hooks;
  /** The embedding model of vector and hybrid search (from `config.embeddings`); null: search is lexical only. */
  embeddings: EmbeddingProvider | null;
  /** The derived-data outbox's drainer (outbox/drain.ts): woken by every commit, waited for by every search. */
  outbox: OutboxDrainer;
  /**
   * Resolves once every transaction committed before the call is durable (decision 0022): the operation runner
   * awaits it before answering a change. Concurrent callers share one sync of the database (durable.ts).
   */
  durable(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Writes the derived data (search index) of committed changes, after their commit (outbox/drain.ts). One per
 * platform; `inTx` wakes it, searches wait for it, the background pass and start-up drain what a crash left.
 */
export interface OutboxDrainer {
  /**
   * A transaction committed: if it enqueued changes, drain them now in the background (with whatever else is
   * pending); resolves once they are indexed or the drain failed (they stay pending then). Never rejects.
   */
  committed(trx: object): Promise<void>;
  /** Starts a drain of everything pending in the background of this process (the server's start-up). */
  wake(): void;
  /** Returns once every change of the project committed before the call is indexed (read-your-writes). */
  settle(projectId: string): Promise<void>;
  /**
   * Drains every pending change of every project (background pass, embedding), after the pass this process is
   * running; returns how many rows it drained itself.
   */
  drainAll(): Promise<number>;
  /** Returns once no drain of this process is running (before the database closes). */
  idle(): Promise<void>;
}

/** What an operation runs with: `op(ctx, input)`. Built per request; never cached across requests. */
export interface Ctx {
  platform: Platform;
  actor: Actor;
  project: ProjectRow;
  /**
   * The WebDAV lock tokens this request submitted (its If header). Absent at doors that cannot submit tokens:
   * there the lock's own holder may change what it locked, and everyone else is refused (see files/locks.ts).
   */
  lockTokens?: string[];
  /**
   * Audit actions recorded while the operation runner runs one operation (set by the runner, filled by
   * recordAudit), so the runner can see that the action an operation declares was written.
   */
  audited?: string[];
}

/** The query handle of the platform, or of the transaction an operation is running in. */
export type Q = Kysely<DB>;

/** A change to a file, as the hooks that keep derived data in step see it. */
export interface FileChange {
  kind: 'written' | 'moved' | 'deleted';
  projectId: string;
  fileId: string;
  path: string;
  fromPath?: string;
  mime: string;
  size: number;
  version: number;
  /** The new bytes when the change wrote a text file small enough to index (see files/put-file.ts). */
  text?: string;
  /** A write over an existing file: the replaced version's type and size (was it in the search index?). */
  previous?: { mime: string; size: number };
  /** The file's ID was made by this change (a new file): no derived data can refer to it yet. */
  fresh?: boolean;
  at: string;
}

export type FileChangeHandler = (trx: Q, ctx: Ctx, change: FileChange) => Promise<void>;

/**
 * A whole folder moved or deleted in one statement per table: handlers update derived data by path prefix
 * (`from` and everything below `from/`), never file by file.
 */
export interface FolderChange {
  kind: 'moved' | 'deleted';
  projectId: string;
  from: string;
  /** The new folder path of a move. */
  to?: string;
  at: string;
}

export type FolderChangeHandler = (trx: Q, ctx: Ctx, change: FolderChange) => Promise<void>;

/**
 * Extension points that run inside the transaction of a change, so derived data (search index, document
 * chunks) commits or rolls back with it. Chosen once, when the platform is opened.
 */
export interface Hooks {
  onFileChange: FileChangeHandler[];
  onFolderChange: FolderChangeHandler[];
}

/**
 * Runs `fn` in one database transaction (SQLite: BEGIN IMMEDIATE; PostgreSQL: READ COMMITTED + row locks).
 * A unique-index race or text the database refuses ends as a Stoa error (see `refusalOfDbError`).
 */
export async function inTx<T>(platform: Platform, fn: (trx: Q) => Promise<T>): Promise<T> {
  try {
    let tx: object | undefined;
    const r = await platform.db.kysely.transaction().execute((trx) => {
      tx = trx;
      return fn(trx);
    });
    // Committed: the derived data of what it changed is written now, outside the writer's locks, without making
    // the writer wait — every search waits for what is pending in its project (read-your-writes).
    void platform.outbox.committed(tx!);
    return r;
  } catch (e) {
    throw refusalOfDbError(e) ?? e;
  }
}
