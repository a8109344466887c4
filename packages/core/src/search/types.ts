/** A document to index. `visibility` is opaque here: searches return it only to callers that list it. */
export interface SearchDocInput {
  projectId: string;
  /** 'wiki' | 'memory' | 'file' | 'chunk' | … */
  kind: string;
  /** The id of the indexed thing in its own table; (projectId, kind, refId) is unique. */
  refId: string;
  path: string;
  title: string;
  /** Original text; snippets are cut from it. */
  body: string;
  /** e.g. 'project', 'channel:conv_1', 'agent:agt_x'. */
  visibility: string;
  /** ISO-8601 UTC. */
  updatedAt: string;
}

/** A search request. Only documents whose visibility is in `visibility` can match (checked in SQL). */
export interface SearchQuery {
  projectId: string;
  /** Free text in any language; never parsed as query syntax. */
  query: string;
  kinds?: string[];
  /** Allowed visibility values; an empty list finds nothing. */
  visibility: string[];
  /** 'handbook' matches 'handbook' and 'handbook/…' (not 'handbook2'); a trailing '/' matches only below it. */
  pathPrefix?: string;
  /** Default 20, at most 100. */
  limit?: number;
  offset?: number;
}

/** One hit, best first. `highlights` are [start, end) UTF-16 offsets into `snippet`. */
export interface SearchHit {
  kind: string;
  refId: string;
  path: string;
  title: string;
  snippet: string;
  /**
   * Higher is better, comparable within one result list: BM25 (lexical), cosine similarity (vector) or the
   * reciprocal-rank-fusion score (hybrid).
   */
  score: number;
  highlights: Array<[number, number]>;
  updatedAt: string;
  /** Which rankings found it: `lexical`, `vector`, or both in hybrid search. */
  matchedBy: Array<'lexical' | 'vector'>;
  /** The markdown heading above the snippet's first matched word, where the text has one. */
  heading?: string;
}

/** A ranked row before its snippet is cut (internal to the back ends). */
export interface RankedRow {
  id: number;
  kind: string;
  refId: string;
  path: string;
  title: string;
  updatedAt: string;
  score: number;
  /** The document's text, when the back end was asked for it (`withBody`) and could join it cheaply. */
  body?: string;
}

/** Filters shared by the back ends, already normalised. */
export interface RankRequest {
  projectId: string;
  terms: string[];
  kinds?: string[];
  visibility: string[];
  pathPrefix?: string;
  limit: number;
  offset: number;
  /** AND: documents with every term; OR: with any. */
  op: 'AND' | 'OR';
  /** search_docs ids to leave out (the AND hits already shown when OR fills the page). */
  exclude?: number[];
  /** Return each hit's text too (PostgreSQL joins it into the ranking statement, saving a round trip). */
  withBody?: boolean;
}
