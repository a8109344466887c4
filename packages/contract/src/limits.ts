/**
 * The limit settings of §9: environment names and defaults. The names are part of the contract.
 */
export const limitSettings = {
  quotaBytes: { env: 'STOA_QUOTA_BYTES', default: 1073741824 },
  directUploadBytes: { env: 'STOA_DIRECT_UPLOAD_BYTES', default: 26214400 },
  previewTextBytes: { env: 'STOA_PREVIEW_TEXT_BYTES', default: 1048576 },
  previewMediaBytes: { env: 'STOA_PREVIEW_MEDIA_BYTES', default: 26214400 },
  uiMaxFiles: { env: 'STOA_UI_MAX_FILES', default: 20000 },
  agentListMax: { env: 'STOA_AGENT_LIST_MAX', default: 1000 },
  agentReadBytes: { env: 'STOA_AGENT_READ_BYTES', default: 2097152 },
  agentReadChars: { env: 'STOA_AGENT_READ_CHARS', default: 50000 },
  agentWriteBytes: { env: 'STOA_AGENT_WRITE_BYTES', default: 2097152 },
  agentWritesPerConversation: { env: 'STOA_AGENT_WRITES_PER_CONVERSATION', default: 20 },
  agentWriteWindowSeconds: { env: 'STOA_AGENT_WRITE_WINDOW_SECONDS', default: 3600 },
  memoryInlineChars: { env: 'STOA_MEMORY_INLINE_CHARS', default: 12000 },
  versionsPerFile: { env: 'STOA_VERSIONS_PER_FILE', default: 50 },
  versionsMaxAgeDays: { env: 'STOA_VERSIONS_MAX_AGE_DAYS', default: 30 },
  uploadReservationSeconds: { env: 'STOA_UPLOAD_RESERVATION_SECONDS', default: 3600 },
  uploadPartBytes: { env: 'STOA_UPLOAD_PART_BYTES', default: 8388608 },
  volumesPerProject: { env: 'STOA_MAX_VOLUMES_PER_PROJECT', default: 100 },
  archiveMaxFiles: { env: 'STOA_ARCHIVE_MAX_FILES', default: 10000 },
  archiveMaxBytes: { env: 'STOA_ARCHIVE_MAX_BYTES', default: 4294967296 },
  jsonBodyBytes: { env: 'STOA_JSON_BODY_BYTES', default: 6291456 },
  /** How long a login session lasts (issue 26); logging out ends it at once. */
  sessionHours: { env: 'STOA_SESSION_HOURS', default: 168 },
  /** The longest WebDAV lock (issue 26); `Timeout: Infinite` is granted as this. */
  lockMaxSeconds: { env: 'STOA_LOCK_MAX_SECONDS', default: 86400 },
} as const;

export type LimitName = keyof typeof limitSettings;
export type Limits = { [K in LimitName]: number };

/**
 * The longest string each kind of input field may hold, in characters: every string a route or tool accepts
 * names one of these (a test walks every input schema), so a request cannot make the server hash, match or store a
 * megabyte where it expects a name (issue 27). The byte limits of whole texts (a page's 1 MB, a memory file's
 * STOA_AGENT_WRITE_BYTES) are checked in the core below `text`.
 */
export const inputMax = {
  /** Names: projects, users, agents, tokens, channels, tools, confirmations. */
  name: 200,
  /** IDs, cursors, tokens, codes, hashes. */
  id: 500,
  /** File and page paths, prefixes, folders. */
  path: 4096,
  /** Search queries: their terms are scored one by one, so they stay short. */
  query: 1000,
  /** Glob patterns. */
  pattern: 500,
  /** Titles and other one-line labels. */
  title: 1000,
  /** Free text that is not a document: an agent's instructions, a message. */
  note: 100_000,
  /** Whole texts: page texts, memory files, file contents. */
  text: 8 * 1024 * 1024,
} as const;

/**
 * The deepest a search may page (`offset`): each page ranks everything before it, so an offset of a billion would
 * score the whole index for one request (issue 27).
 */
export const SEARCH_OFFSET_MAX = 10_000;

/**
 * Request bodies (JSON, WebDAV's XML): the deepest nesting a body may have, checked on the raw text before it is
 * parsed. No route's input nests deeper than a few levels; a body of a few MB of `[[[[…` once held the event loop for ~10 s
 * and 1.3 GB of memory (issue 27).
 */
export const BODY_MAX_DEPTH = 64;
