import { useI18n } from '../i18n/index.js';

/**
 * The header row of a `table.grid` whose last column holds each row's buttons: the given column titles, then an
 * actions column named for screen readers only (a header cell with no name fails the accessibility check).
 *
 * @example
 * <table className="grid"><GridHead columns={[t('locks.path'), t('locks.holder')]} /><tbody>…</tbody></table>
 */
export function GridHead({ columns }: { columns: string[] }) {
  const { t } = useI18n();
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th key={c}>{c}</th>
        ))}
        <th>
          <span className="sr-only">{t('files.col.actions')}</span>
        </th>
      </tr>
    </thead>
  );
}
