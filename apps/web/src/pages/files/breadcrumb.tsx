import { useI18n } from '../../i18n/index.js';

/**
 * Where the open folder is: the project root, then each folder down to the open one; every part but the last
 * opens its folder.
 *
 * @example
 * <Breadcrumb folder="reports/2026" onOpen={select} /> // Project files › reports › 2026
 */
export function Breadcrumb(props: { folder: string; onOpen: (path: string) => void }) {
  const { t } = useI18n();
  const parts = props.folder === '' ? [] : props.folder.split('/');
  const crumbs = [{ path: '', label: t('files.root') }, ...parts.map((label, i) => ({ path: parts.slice(0, i + 1).join('/'), label }))];
  return (
    <nav className="breadcrumb" aria-label={t('files.breadcrumb')}>
      <ol>
        {crumbs.map((c, i) =>
          i === crumbs.length - 1 ? (
            <li key={c.path} aria-current="location">
              {c.label}
            </li>
          ) : (
            <li key={c.path}>
              <a
                href={c.path ? `/files/${c.path.split('/').map(encodeURIComponent).join('/')}` : '/files'}
                onClick={(e) => {
                  e.preventDefault();
                  props.onOpen(c.path);
                }}
              >
                {c.label}
              </a>
            </li>
          ),
        )}
      </ol>
    </nav>
  );
}
