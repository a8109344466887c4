import type { Chunk } from './chunk.js';
import type { ParseCaps, ParsedDocument, ParseMode } from './parse.js';
import type { ParseFailureCode } from './parse-refusal.js';

/** A job sent to a parser worker; `bytes` is transferred, not copied. */
export interface ParseJob {
  id: number;
  bytes: ArrayBuffer;
  mime: string;
  mode: ParseMode;
  caps: ParseCaps;
  /** Also cut the text into chunks (understanding), or only extract it (validating citations). */
  chunk: boolean;
}

/** What a parse came to. `interrupted`: the pool was closed (the server stops), which says nothing about the file. */
export type ParseOutcome = { ok: true; doc: ParsedDocument; chunks: Chunk[] } | { ok: false; code: ParseFailureCode; reason: string; interrupted?: true };

export type WorkerAnswer = ParseOutcome & { id: number };
