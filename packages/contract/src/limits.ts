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
} as const;

export type LimitName = keyof typeof limitSettings;
export type Limits = { [K in LimitName]: number };
