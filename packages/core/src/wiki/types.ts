/** A page in listings and as the answer of a save. */
export interface WikiPageSummary {
  path: string;
  /** Effective title (derived from the path when the page has none). */
  title: string;
  version: number;
  /** Conversation ID when the page belongs to one channel; null for a workspace page. */
  channel: string | null;
  updated: string;
  updatedBy: string;
}

/** A page as `wiki get` shows it (§7: path, title, version, text, linkedHere). */
export interface WikiPage extends WikiPageSummary {
  text: string;
  created: string;
  createdBy: string;
  /** Visible pages that link here ("Linked here", W2). */
  linkedHere: Array<{ path: string; title: string }>;
  /** This page's `[[links]]`; `missing` when no page the caller can see is at the target. */
  links: Array<{ path: string; label: string | null; heading: string | null; missing: boolean }>;
  /** Visible pages that mention this page's title without linking to it (B10). */
  unlinkedMentions: Array<{ path: string; title: string; snippet: string }>;
}

/** One entry of a page's history. */
export interface WikiVersionInfo {
  version: number;
  title: string;
  path: string;
  action: 'create' | 'edit' | 'rename';
  author: string;
  authorDetail: { kind: string; id: string | null; label: string | null };
  /** When it was saved, ISO-8601 UTC. */
  time: string;
  size: number;
  current: boolean;
}
