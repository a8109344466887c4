import { useMemo } from 'react';
import { wikiHref } from '../../api/wiki.js';
import { useI18n } from '../../i18n/index.js';
import { navigate } from '../../router.js';
import { Markdown } from '../wiki/markdown.js';
import { ProjectImage } from '../wiki/project-image.js';
import { parentOf } from './folder-route.js';
import { parseDelimited, separatorOf } from './csv.js';
import { renderedKind } from './preview-modes.js';

/** Rows of a CSV or TSV file shown at most: a table of a million rows would stall the page. */
const TABLE_MAX_ROWS = 500;

/**
 * A text file rendered (F11): markdown through the wiki's renderer — React elements only, raw HTML shown as text,
 * only safe link schemes, pictures only from this project's files (relative to the file's folder) — and CSV/TSV as
 * a table read by a real CSV parser, the first TABLE_MAX_ROWS rows. This module is its own chunk: the markdown
 * renderer loads only when such a file is opened.
 *
 * @example
 * <RenderedPreview project={pid} path="notes/plan.md" text={text} />
 */
export function RenderedPreview({ project, path, text }: { project: string; path: string; text: string }) {
  const { t } = useI18n();
  const name = path.slice(path.lastIndexOf('/') + 1);
  const kind = renderedKind(name);
  const table = useMemo(() => (kind === 'table' ? parseDelimited(text, separatorOf(name, text), TABLE_MAX_ROWS + 1) : null), [kind, name, text]);
  if (kind === 'markdown') {
    const folder = parentOf(path);
    return (
      <div className="preview-rendered">
        <Markdown
          text={text}
          link={(p, label, _h, key) => (
            <a
              key={key}
              href={wikiHref(p)}
              onClick={(e) => {
                e.preventDefault();
                navigate(wikiHref(p));
              }}
            >
              {label}
            </a>
          )}
          image={(p, alt, key) => <ProjectImage key={key} project={project} path={folder ? `${folder}/${p}` : p} alt={alt} />}
        />
      </div>
    );
  }
  if (!table) return null;
  const [head, ...body] = table.rows.slice(0, TABLE_MAX_ROWS + 1);
  const cut = table.truncated || body.length > TABLE_MAX_ROWS;
  const rows = body.slice(0, TABLE_MAX_ROWS);
  const width = Math.max(0, ...table.rows.map((r) => r.length));
  return (
    <div className="preview-rendered preview-table">
      {cut && <p className="notice warn">{t('preview.firstRows', { n: TABLE_MAX_ROWS })}</p>}
      <div className="md-table">
        <table>
          {head && (
            <thead>
              <tr>
                {Array.from({ length: width }, (_, i) => (
                  <th key={i} scope="col">
                    {head[i] ?? ''}
                  </th>
                ))}
              </tr>
            </thead>
          )}
          <tbody>
            {rows.map((r, ri) => (
              <tr key={ri}>
                {Array.from({ length: width }, (_, i) => (
                  <td key={i}>{r[i] ?? ''}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
