/**
 * Where the open item is: the root, then each level down to the open one; every part but the last opens its
 * level. Files use it for folders, the wiki for page paths.
 *
 * @example
 * <Breadcrumb label="Folder path" root="Project files" path="reports/2026" href={folderHref} onOpen={select} />
 * // Project files › reports › 2026
 */
export function Breadcrumb(props: {
  label: string;
  root: string;
  path: string;
  href: (path: string) => string;
  onOpen: (path: string) => void;
  /** Lets a level above the open one take something dropped on it (files dragged there to move). */
  dropTarget?: (path: string) => React.HTMLAttributes<HTMLElement>;
}) {
  const parts = props.path === '' ? [] : props.path.split('/');
  const crumbs = [{ path: '', label: props.root }, ...parts.map((label, i) => ({ path: parts.slice(0, i + 1).join('/'), label }))];
  return (
    <nav className="breadcrumb" aria-label={props.label}>
      <ol>
        {crumbs.map((c, i) =>
          i === crumbs.length - 1 ? (
            <li key={c.path} aria-current="location">
              {c.label}
            </li>
          ) : (
            <li key={c.path} {...props.dropTarget?.(c.path)}>
              <a
                href={props.href(c.path)}
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
