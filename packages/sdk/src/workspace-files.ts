import { docsRoutes, filesRoutes, projectRoutes, StoaError, type RouteInput, type RouteOutput } from '@stoa/contract';
import type { StoaClient } from './client.js';

type FileInfo = RouteOutput<typeof filesRoutes.stat>;

/** A file's understanding status (R6): parse `status` and `vectorIndexStatus` apart, never the parsed text. */
export type UnderstandingStatus = RouteOutput<typeof docsRoutes.status>;
/** One page of a file's chunks in parse order, pages from 1, with `hasMore` and the page size the host used. */
export type UnderstandingChunkPage = RouteOutput<typeof docsRoutes.chunks>;
/** A search hit: a citation (fileAssetId, chunkId, version, span, hash) with the chunk's content. */
export type UnderstandingChunkHit = RouteOutput<typeof docsRoutes.search>[number];
/** What re-checking one piece of evidence found: valid, moved, changed, deleted or not_found, with an excerpt. */
export type UnderstandingReferenceCheck = RouteOutput<typeof docsRoutes.validate>[number];
/** Which parser to use; "auto" chooses by the file's type. */
export type UnderstandingParseMode = NonNullable<RouteInput<typeof docsRoutes.understand>['parseMode']>;

/** The bytes of a file with what is known of it (R5 `readRuntimeBuffer`). */
export interface RuntimeFileBuffer {
  buffer: Buffer;
  mimeType: string;
  size: number;
  metadata: Record<string, string> | null;
  reference: PortableReference;
}

/**
 * The narrow files API for media-generation adapters (seed 003 `WorkspaceMediaFilesApi<TLocator>`, R5): upload and
 * read bytes, optionally read with metadata and delete. Type a component with it when it should not depend on the
 * whole runtime; a `WorkspaceFiles` is one.
 *
 * @example
 * async function saveThumbnail(files: WorkspaceMediaFilesApi, png: Buffer) {
 *   return (await files.uploadBuffer(png, { filePath: 'thumbs/cover.png', mimeType: 'image/png' })).reference;
 * }
 */
export interface WorkspaceMediaFilesApi<TLocator = FileLocator> {
  uploadBuffer(
    buffer: Buffer,
    opts: { filePath: string; expectedVersion?: number; metadata?: Record<string, string>; mimeType?: string },
  ): Promise<{ file: FileInfo; reference: PortableReference }>;
  readBuffer(locator: TLocator): Promise<Buffer>;
  readRuntimeBuffer?(locator: TLocator): Promise<RuntimeFileBuffer>;
  deleteFile?(locator: TLocator): Promise<unknown>;
}

/**
 * Where a runtime's files live, as the server resolved it for the caller (R1): the volume (a project, a person's
 * own files, an agent's, a private agent's, a knowledge base, a skill package), its typed owners, and who acts in
 * it. Clients get it from `WorkspaceFiles.open`, never build it from strings.
 */
export type WorkspaceScope = RouteOutput<typeof projectRoutes.openVolume>;

/** Which volume to open: a catalog and what names the volume in it (the server adds who the token acts for). */
export type VolumeRequest = RouteInput<typeof projectRoutes.openVolume>;

/** A volume the caller reaches from a project, as `WorkspaceFiles.list` answers it. */
export type VolumeListing = RouteOutput<typeof projectRoutes.listVolumes>[number];

/** The `source` of a portable reference. */
export const PORTABLE_SOURCE = 'platform.workspace.files';

/** A file named by scope and path relative to the volume (R2). */
export interface ExplicitReference {
  scope: WorkspaceScope;
  filePath: string;
}
/** What a tool produced: a path, possibly under the `/workspace/` alias, with what it knows of the file. */
export interface RuntimeDescriptor {
  path: string;
  name?: string;
  mimeType?: string;
  size?: number;
}
/**
 * A reference that survives serialisation (a queue, a retry, another process) and resolves later. `fileId` is
 * stable across renames and moves: a renamed file still resolves, to its new path; a deleted one answers not_found.
 */
export interface PortableReference {
  source: typeof PORTABLE_SOURCE;
  scope: WorkspaceScope;
  filePath: string;
  workspacePath: string;
  fileId: string;
  version: number;
}
/** Any way to name a file: a path string, or one of the references. */
export type FileLocator = string | ExplicitReference | RuntimeDescriptor | PortableReference;

/** A locator normalised without reading anything: its path relative to the volume, and the file ID when known. */
interface NormalisedLocator {
  filePath: string;
  workspacePath: string;
  fileId: string | null;
}

const WORKSPACE = '/workspace/';

/**
 * The workspace-files runtime (R3–R5, R7) of one scope, over HTTP: every call goes through the server's
 * routes, so the path rules, quota, roles, agent limits and audit are those of every other door. Build one per
 * job and actor with `open`; never share it across tokens or projects.
 *
 * @example
 * const files = await WorkspaceFiles.open(new StoaClient({ url, token }), 'default');
 * const { reference } = await files.writeRuntimeBuffer({ buffer: Buffer.from('hi'), originalName: 'out.txt', folder: 'outputs' });
 * const again = await files.readRuntimeBuffer(JSON.parse(JSON.stringify(reference)));
 */
export class WorkspaceFiles implements WorkspaceMediaFilesApi {
  private constructor(
    private readonly client: StoaClient,
    readonly scope: WorkspaceScope,
  ) {}

  /**
   * Resolves the caller's scope from the server (R1, R3): a project by name or ID, or a volume of a catalog —
   * `{ catalog: 'users' }` (your own files), `{ catalog: 'xperts', agent }`, `{ catalog: 'user-xperts', agent }`,
   * `{ catalog: 'knowledges' | 'skills', project, name }`. The volume is created on first use by someone who may
   * write it; someone else's answers not_found. A string starting with `vol_` opens an existing volume by its ID
   * (from `list`). Open one per job and actor; never share it across tokens.
   */
  static async open(client: StoaClient, volume: string | VolumeRequest): Promise<WorkspaceFiles> {
    if (typeof volume === 'string' && volume.startsWith('vol_')) return new WorkspaceFiles(client, await client.call(projectRoutes.getVolume, { volume }));
    const input: VolumeRequest = typeof volume === 'string' ? { catalog: 'projects', project: volume } : volume;
    return new WorkspaceFiles(client, await client.call(projectRoutes.openVolume, input));
  }

  /**
   * The volumes the caller reaches from a project (R1): its knowledge bases and skill packages, the agents'
   * volumes it may read, the caller's own files — each with its typed scope, access and usage. Open one with
   * `open(client, v.volumeId)`.
   *
   * @example
   * const kbs = await WorkspaceFiles.list(client, 'default', 'knowledges');
   */
  static async list(client: StoaClient, project: string, catalog?: VolumeListing['catalog']): Promise<VolumeListing[]> {
    return client.call(projectRoutes.listVolumes, { project, ...(catalog ? { catalog } : {}) });
  }

  /** What every file call names the volume by: its ID (a project's ID for the projects catalog). */
  private get volume(): string {
    return this.scope.volumeId;
  }

  /**
   * Normalises a locator without reading (R5 `resolveRuntimeReference`): strips the `/workspace/` alias, refuses
   * a reference of another scope and paths that leave the volume.
   */
  resolveRuntimeReference(locator: FileLocator): NormalisedLocator {
    let path: string;
    let fileId: string | null = null;
    if (typeof locator === 'string') path = locator;
    else if ('source' in locator) {
      if (locator.source !== PORTABLE_SOURCE) throw new StoaError('bad_request', `unknown reference source "${String(locator.source)}"`);
      this.assertScope(locator.scope);
      path = locator.filePath;
      fileId = locator.fileId;
    } else if ('scope' in locator) {
      this.assertScope(locator.scope);
      path = locator.filePath;
    } else path = locator.path;
    if (path.startsWith(WORKSPACE)) path = path.slice(WORKSPACE.length);
    else if (path === '/workspace') path = '';
    if (path.startsWith('/')) throw new StoaError('path_invalid', 'a file path is relative to the workspace (or starts with /workspace/), never a host path');
    if (path === '' || path.split('/').some((s) => s === '..' || s === '.'))
      throw new StoaError('path_invalid', `"${path}" is not a file path in the workspace`);
    return { filePath: path, workspacePath: WORKSPACE + path, fileId };
  }

  /** Stores bytes at a path (R5 `uploadBuffer`); answers the file and its portable reference. */
  async uploadBuffer(
    buffer: Buffer,
    opts: { filePath: string; expectedVersion?: number; metadata?: Record<string, string>; mimeType?: string },
  ): Promise<{ file: FileInfo; reference: PortableReference }> {
    const { filePath } = this.resolveRuntimeReference(opts.filePath);
    const metadata = opts.metadata && Object.keys(opts.metadata).length ? JSON.stringify(opts.metadata) : undefined;
    const input = { project: this.volume, path: filePath, expectedVersion: opts.expectedVersion, metadata, type: opts.mimeType };
    const r = await this.client.send(filesRoutes.upload, input, buffer, {
      size: buffer.length,
    });
    return { file: r.file, reference: this.referenceOf(r.file) };
  }

  /** A file's metadata and an absolute, expiring URL that opens its bytes — never the bytes (R5 `resolveFile`). */
  async resolveFile(locator: FileLocator, opts: { expiresIn?: number; version?: number } = {}) {
    const n = this.resolveRuntimeReference(locator);
    const r = await this.client.call(filesRoutes.resolve, {
      project: this.volume,
      ...(n.fileId ? { id: n.fileId } : { path: n.filePath }),
      version: opts.version,
      expiresIn: opts.expiresIn,
    });
    return { ...r, url: new URL(r.url, this.client.url).toString(), reference: this.referenceOf(r.file) };
  }

  /** The bytes of a file (R5 `readBuffer`), fetched through the URL `resolveFile` gives. */
  async readBuffer(locator: FileLocator): Promise<Buffer> {
    return (await this.readRuntimeBuffer(locator)).buffer;
  }

  /** The bytes with their type, size, metadata and portable reference (R5 `readRuntimeBuffer`). */
  async readRuntimeBuffer(locator: FileLocator): Promise<RuntimeFileBuffer> {
    const r = await this.resolveFile(locator, { expiresIn: 60 });
    const res = await fetch(r.url);
    if (!res.ok) throw new StoaError(res.status === 404 ? 'not_found' : 'unavailable', `the file could not be read (HTTP ${res.status})`);
    const buffer = Buffer.from(await res.arrayBuffer());
    return { buffer, mimeType: r.file.type, size: buffer.length, metadata: r.file.metadata ?? null, reference: r.reference };
  }

  /**
   * Writes a tool's output (R5 `writeRuntimeBuffer`): into `folder` under `originalName`, replacing a file there
   * as a new version (history kept). The server types files by their name (F12), so the name's extension decides
   * the MIME type the file is served with; `mimeType` is checked against it (a name without a known extension may
   * take an inert type such as text/csv or image/png; anything the name contradicts is `bad_request`).
   * `metadata` (a small object of strings, at most 32 keys and 4 KB) is stored with the new version and comes back
   * from `resolveFile` and `readRuntimeBuffer`.
   */
  async writeRuntimeBuffer(input: {
    buffer: Buffer;
    originalName: string;
    mimeType?: string;
    folder?: string;
    metadata?: Record<string, string>;
  }): Promise<{ file: FileInfo; reference: PortableReference }> {
    if (!input.originalName || input.originalName.includes('/')) throw new StoaError('path_invalid', 'originalName is a file name, without folders');
    const folder = input.folder ? this.resolveRuntimeReference(input.folder).filePath : '';
    const filePath = folder ? `${folder}/${input.originalName}` : input.originalName;
    return this.uploadBuffer(input.buffer, { filePath, metadata: input.metadata, mimeType: input.mimeType });
  }

  /** Deletes a file and its versions (R5 `deleteFile`), with the roles and audit of every door. */
  async deleteFile(locator: FileLocator): Promise<FileInfo> {
    return this.client.call(filesRoutes.remove, { project: this.volume, path: await this.pathOf(locator) });
  }

  /**
   * Registers a file for parsing and indexing and parses it (R6 `understandFile`): text, Markdown, PDF, DOCX.
   * Answers the compact status (with the `fileAssetId` citations carry); the index follows the file's later
   * versions by itself. Needs read access to the file; changes no file.
   *
   * @example
   * const s = await files.understandFile({ filePath: 'manuals/turbine.pdf', parseMode: 'auto' });
   */
  async understandFile(input: FileLocator | { filePath: string; parseMode?: UnderstandingParseMode }): Promise<UnderstandingStatus> {
    const parseMode = typeof input === 'object' && 'parseMode' in input ? input.parseMode : undefined;
    return this.client.call(docsRoutes.understand, { project: this.volume, path: await this.pathOf(input), parseMode });
  }

  /** The parse and vector-index status of a file, without its text (R6 `getUnderstandingStatus`). */
  async getUnderstandingStatus(input: FileLocator | { filePath: string }): Promise<UnderstandingStatus> {
    return this.client.call(docsRoutes.status, { project: this.volume, path: await this.pathOf(input) });
  }

  /** Parses a failed file again (R6 `retryUnderstanding`); a file that did not fail is `bad_request`. */
  async retryUnderstanding(input: FileLocator | { filePath: string }): Promise<UnderstandingStatus> {
    return this.client.call(docsRoutes.retry, { project: this.volume, path: await this.pathOf(input) });
  }

  /**
   * A page of a file's chunks in parse order (R6 `listUnderstandingChunks`): pages from 1, with `hasMore`. The host
   * caps the page size (50) and answers the size it used; page until `hasMore` is false, never assume one call
   * holds the document.
   */
  async listUnderstandingChunks(
    input: FileLocator | { filePath: string; page?: number; pageSize?: number },
    opts: { page?: number; pageSize?: number } = {},
  ): Promise<UnderstandingChunkPage> {
    const inline: { page?: number; pageSize?: number } = typeof input === 'object' && 'filePath' in input && !('scope' in input) ? input : {};
    const page = opts.page ?? inline.page;
    const pageSize = opts.pageSize ?? inline.pageSize;
    return this.client.call(docsRoutes.chunks, { project: this.volume, path: await this.pathOf(input), page, pageSize });
  }

  /**
   * Searches the chunks of parsed files the caller may read (R6 `searchUnderstandingChunks`): hybrid where the
   * installation has an embedding model, lexical where not. `file` keeps to one file. The host caps `limit` (50)
   * and `contentLength` (4000 characters of each chunk).
   */
  async searchUnderstandingChunks(input: {
    query: string;
    file?: FileLocator;
    limit?: number;
    contentLength?: number;
    mode?: RouteInput<typeof docsRoutes.search>['mode'];
  }): Promise<UnderstandingChunkHit[]> {
    const file = input.file === undefined ? undefined : await this.pathOf(input.file);
    return this.client.call(docsRoutes.search, {
      project: this.volume,
      q: input.query,
      file,
      limit: input.limit,
      contentLength: input.contentLength,
      mode: input.mode,
    });
  }

  /**
   * Re-checks cited evidence before it is shown or acted on (R6 `validateUnderstandingReferences`): for each
   * `fileAssetId`/`chunkId` (at most 50), whether it is still valid, moved, changed or deleted, with an excerpt.
   */
  async validateUnderstandingReferences(
    input: Array<{ fileAssetId: string; chunkId: string }> | { references: Array<{ fileAssetId: string; chunkId: string }> },
  ): Promise<UnderstandingReferenceCheck[]> {
    const references = (Array.isArray(input) ? input : input.references).map((r) => ({ fileAssetId: r.fileAssetId, chunkId: r.chunkId }));
    return this.client.call(docsRoutes.validate, { project: this.volume, references });
  }

  /** The current path of a locator (a portable reference by its file ID, so a renamed file is still found). */
  private async pathOf(input: FileLocator | { filePath: string }): Promise<string> {
    const locator: FileLocator = typeof input === 'object' && !('scope' in input) && 'filePath' in input ? input.filePath : (input as FileLocator);
    const n = this.resolveRuntimeReference(locator);
    return n.fileId ? (await this.resolveFile(locator)).file.path : n.filePath;
  }

  private referenceOf(file: FileInfo): PortableReference {
    return { source: PORTABLE_SOURCE, scope: this.scope, filePath: file.path, workspacePath: WORKSPACE + file.path, fileId: file.id, version: file.version };
  }

  private assertScope(scope: Partial<WorkspaceScope> | undefined): void {
    const mine = this.scope;
    const catalog = scope?.catalog ?? 'projects'; // references made before volumes carried a project's scope only
    const same =
      !!scope &&
      catalog === mine.catalog &&
      (scope.volumeId === undefined ? catalog === 'projects' : scope.volumeId === mine.volumeId) &&
      scope.projectId === mine.projectId &&
      // In a project these name who acted; in any other volume they are its owners and must match.
      (catalog === 'projects' || (scope.scopeId === mine.scopeId && scope.userId === mine.userId && scope.xpertId === mine.xpertId));
    if (!same) throw new StoaError('forbidden', 'the reference belongs to another workspace');
  }
}
