import { useState } from 'react';
import type { ItemKind } from '../api/personal.js';
import { useFavourites } from '../favourites.js';
import { useI18n } from '../i18n/index.js';
import { errorText } from '../format.js';
import { Icon } from './icons.js';

/**
 * A star that adds a file, folder or wiki page to the person's favourites, or takes it off (a toggle button).
 *
 * @example
 * <StarButton project={pid} kind="file" path="reports/q1.md" onError={fail} />
 */
export function StarButton(props: { project: string; kind: ItemKind; path: string; onError: (m: string) => void }) {
  const { t } = useI18n();
  const fav = useFavourites(props.project);
  const [busy, setBusy] = useState(false);
  const on = fav.starred(props.kind, props.path);
  return (
    <button
      type="button"
      className={`link star${on ? ' on' : ''}`}
      aria-pressed={on}
      aria-label={t(on ? 'fav.unstar' : 'fav.star')}
      title={t(on ? 'fav.unstar' : 'fav.star')}
      disabled={busy || fav.items === null}
      onClick={() => {
        setBusy(true);
        fav
          .toggle(props.kind, props.path)
          .catch((e: unknown) => props.onError(errorText(e, t)))
          .finally(() => setBusy(false));
      }}
    >
      <Icon name="star" />
    </button>
  );
}
