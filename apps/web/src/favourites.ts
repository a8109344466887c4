import { useCallback, useEffect, useState } from 'react';
import { personalApi, type ItemKind, type PersonalItem } from './api/personal.js';

/**
 * The signed-in person's favourites of the open project, shared by every star button and the Favourites list on
 * screen: one request per project, and a star given in one place shows at once in the others.
 */
let held: { project: string; items: PersonalItem[] | null; error: unknown; loading: Promise<void> | null } = {
  project: '',
  items: null,
  error: null,
  loading: null,
};
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((l) => l());

function load(project: string, again = false): void {
  if (held.project === project && (held.loading || (held.items && !again))) return;
  const mine = { project, items: held.project === project ? held.items : null, error: null, loading: null as Promise<void> | null };
  held = mine;
  mine.loading = personalApi.favourites(project).then(
    (items) => {
      if (held !== mine) return;
      held = { ...mine, items, loading: null };
      changed();
    },
    (error: unknown) => {
      if (held !== mine) return;
      held = { ...mine, error, loading: null };
      changed();
    },
  );
}

/**
 * The person's favourites in `project`, whether an item is one, and a toggle (the list reloads from the server
 * after each change, so it always shows what the server keeps).
 *
 * @example
 * const fav = useFavourites(pid); fav.starred('file', 'a.md'); await fav.toggle('file', 'a.md');
 */
export function useFavourites(project: string) {
  const [, redraw] = useState(0);
  useEffect(() => {
    const l = () => redraw((n) => n + 1);
    listeners.add(l);
    load(project);
    return () => void listeners.delete(l);
  }, [project]);
  const items = held.project === project ? held.items : null;
  const starred = useCallback((kind: ItemKind, path: string) => !!items?.some((i) => i.kind === kind && i.path === path), [items]);
  const toggle = useCallback(
    async (kind: ItemKind, path: string) => {
      if (starred(kind, path)) await personalApi.unstar(project, kind, path);
      else await personalApi.star(project, kind, path);
      load(project, true);
    },
    [project, starred],
  );
  return { items, error: held.project === project ? held.error : null, starred, toggle, reload: () => load(project, true) };
}
