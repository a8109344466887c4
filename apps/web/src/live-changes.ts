import { useEffect, useRef } from 'react';
import { filesApi } from './api/files.js';

/** How often the change feed is asked while the page is in view. */
const POLL_MS = 2_000;

/**
 * Calls `onChange` with the changed paths when someone else — a person or an agent, through any door — writes,
 * moves or deletes a file of the project (B7), so the page shows it without a reload. It follows the server's
 * change feed from where it stood when the page opened, and asks only while the tab is visible.
 *
 * @example
 * useLiveChanges(project.id, () => refresh());
 */
export function useLiveChanges(project: string, onChange: (paths: string[]) => void): void {
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => {
    let cursor: string | null = null;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      try {
        if (document.visibilityState === 'visible') {
          if (cursor === null) cursor = (await filesApi.changes(project, 'now')).cursor;
          else {
            const r = await filesApi.changes(project, cursor);
            cursor = r.cursor;
            if (!stopped && r.changes.length > 0) latest.current(r.changes.flatMap((c) => (c.from_path ? [c.path, c.from_path] : [c.path])));
          }
        }
      } catch {
        // A failed poll (offline, signed out) is retried on the next tick; the page's own calls report errors.
      }
      if (!stopped) timer = setTimeout(() => void tick(), POLL_MS);
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [project]);
}

/**
 * Asks `load` again every few seconds while the tab is visible and hands each answer to `onAnswer`: the wiki and
 * memory pages follow their own lists this way (each entry carries its version, under the same access rules as
 * reading it), since the change feed covers files only (B7).
 *
 * @example
 * useLiveList(project.id, () => wikiApi.list(project.id), setPages);
 */
export function useLiveList<T>(project: string, load: () => Promise<T>, onAnswer: (answer: T) => void): void {
  const latest = useRef({ load, onAnswer });
  latest.current = { load, onAnswer };
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      try {
        if (document.visibilityState === 'visible') {
          const answer = await latest.current.load();
          if (!stopped) latest.current.onAnswer(answer);
        }
      } catch {
        // Retried on the next tick; the page's own calls report errors.
      }
      if (!stopped) timer = setTimeout(() => void tick(), POLL_MS);
    };
    timer = setTimeout(() => void tick(), POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [project]);
}
