import { useEffect, useState } from 'react';
import { wikiApi, wikiHref, type WikiDiff, type WikiPageData, type WikiVersion, type WikiVersionText } from '../../api/wiki.js';
import { useI18n } from '../../i18n/index.js';
import { authorLabel, authorText, errorText, formatDate } from '../../format.js';
import { navigate } from '../../router.js';
import { Markdown } from './markdown.js';
import { ProjectImage } from './project-image.js';
import { Breadcrumb } from '../../components/breadcrumb.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { focusOnMount } from '../../components/focus-trap.js';
import { MoreMenu } from '../../components/more-menu.js';
import { DiffView } from '../../components/diff-view.js';
import { StarButton } from '../../components/star-button.js';
import { personalApi } from '../../api/personal.js';
import { useScrollToHeading } from './scroll-to-heading.js';
import { GridHead } from '../../components/grid-head.js';

function go(e: React.MouseEvent, path: string) {
  e.preventDefault();
  navigate(wikiHref(path));
}

/**
 * One page (W2): its rendered text with clickable [[links]] (missing targets marked), "Linked here", pages that
 * mention it without a link (B10), and History: "Show" an earlier version, its "Changes" up to now as a line
 * diff, and "Restore" it (a new version with its text and title, so nothing of the history is lost).
 *
 * @example
 * <PageView project={id} page={page} canEdit onEdit={edit} onChanged={reload} />
 */
export function PageView(props: {
  project: string;
  page: WikiPageData;
  canEdit: boolean;
  onEdit: () => void;
  onChanged: (path: string | null) => void;
  /** The titles of the pages the reader can see, by path (null while the list loads): a link shows its target's. */
  titles?: ReadonlyMap<string, string> | null;
}) {
  const { t, lang } = useI18n();
  const { page } = props;
  const [history, setHistory] = useState<WikiVersion[] | null>(null);
  const [shown, setShown] = useState<WikiVersionText | null>(null);
  useScrollToHeading(page.path);
  const [diff, setDiff] = useState<WikiDiff | null>(null);
  const [restored, setRestored] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [moving, setMoving] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const missing = new Set(page.links.filter((l) => l.missing).map((l) => l.path));

  useEffect(() => {
    setHistory(null);
    setShown(null);
    setDiff(null);
  }, [page.path, page.version]);
  useEffect(() => setRestored(null), [page.path]);
  useEffect(() => personalApi.opened(props.project, 'page', page.path), [props.project, page.path]);

  const move = async () => {
    if (!moving || moving.trim() === page.path) return setMoving(null);
    try {
      const r = await wikiApi.move(props.project, page.path, moving.trim());
      setMoving(null);
      props.onChanged(r.moved[0]?.to ?? moving.trim());
    } catch (e) {
      setError(errorText(e, t));
    }
  };
  // Rename (W6): a new title saved as a new version, refused over someone's newer save.
  const rename = async () => {
    if (renaming === null || renaming.trim() === page.title) return setRenaming(null);
    try {
      await wikiApi.rename(props.project, page.path, renaming.trim(), page.version);
      setRenaming(null);
      props.onChanged(page.path);
    } catch (e) {
      setError(errorText(e, t));
    }
  };
  const remove = async () => {
    setDeleting(false);
    try {
      await wikiApi.remove(props.project, page.path, page.version);
      props.onChanged(null);
    } catch (e) {
      setError(errorText(e, t));
    }
  };
  const loadHistory = () => wikiApi.history(props.project, page.path).then(setHistory, (e) => setError(errorText(e, t)));
  const show = (v: number) =>
    wikiApi.version(props.project, page.path, v).then(
      (x) => {
        setDiff(null);
        setShown(x);
      },
      (e) => setError(errorText(e, t)),
    );
  const changes = (v: number) =>
    wikiApi.diff(props.project, page.path, v).then(
      (d) => {
        setShown(null);
        setDiff(d);
      },
      (e) => setError(errorText(e, t)),
    );
  const restore = async (v: number) => {
    try {
      const old = await wikiApi.version(props.project, page.path, v);
      const r = await wikiApi.put(props.project, { path: page.path, text: old.text, title: old.title, base: page.version });
      setRestored(t('wiki.restored', { v, now: r.version }));
      props.onChanged(page.path);
    } catch (e) {
      setError(errorText(e, t));
    }
  };
  // A link reads as its target's title (or the label it was given); one to a page that does not exist is marked,
  // also in an earlier version shown from History (its links are checked against the list of pages).
  const titles = props.titles;
  const link = (path: string, label: string, heading: string | null, key: string, aliased?: boolean) => {
    const gone = missing.has(path) || (!!titles && !titles.has(path));
    const title = titles?.get(path);
    const shownLabel = aliased || gone || !title ? label : title + (heading ? ` › ${heading}` : '');
    return (
      <a
        key={key}
        href={wikiHref(path) + (heading ? `#${encodeURIComponent(heading)}` : '')}
        className={gone ? 'wiki-link missing' : 'wiki-link'}
        title={gone ? t('wiki.linkMissing', { path }) : path}
        data-wiki-path={path}
        onClick={(e) => go(e, path)}
      >
        {shownLabel}
      </a>
    );
  };

  const image = (path: string, alt: string, key: string) => <ProjectImage key={key} project={props.project} path={path} alt={alt} />;

  return (
    <article className="wiki-view">
      {page.path.includes('/') && (
        <Breadcrumb
          label={t('wiki.breadcrumb')}
          root={t('wiki.pages')}
          path={page.path}
          href={(p) => (p ? wikiHref(p) : '/wiki')}
          onOpen={(p) => navigate(p ? wikiHref(p) : '/wiki')}
        />
      )}
      <div className="row">
        <h1>{page.title}</h1>
        <span className="spacer" />
        <button disabled={!props.canEdit} onClick={props.onEdit}>
          {t('common.edit')}
        </button>
        <MoreMenu
          label={t('wiki.more')}
          disabled={!props.canEdit}
          actions={[
            {
              label: t('wiki.rename'),
              onSelect: () => {
                setMoving(null);
                setRenaming(page.title);
              },
            },
            {
              label: t('wiki.move'),
              onSelect: () => {
                setRenaming(null);
                setMoving(page.path);
              },
            },
            { label: t('common.delete'), danger: true, onSelect: () => setDeleting(true) },
          ]}
        />
        <StarButton project={props.project} kind="page" path={page.path} onError={setError} />
      </div>
      {renaming !== null && (
        <form
          className="row"
          aria-label={t('wiki.rename')}
          onSubmit={(e) => {
            e.preventDefault();
            void rename();
          }}
        >
          <input
            aria-label={t('wiki.pageTitle')}
            value={renaming}
            onChange={(e) => setRenaming(e.target.value)}
            placeholder={t('wiki.titleHint')}
            ref={focusOnMount}
          />
          <button type="submit">{t('wiki.rename')}</button>
          <button type="button" onClick={() => setRenaming(null)}>
            {t('common.cancel')}
          </button>
          <small className="muted">{t('wiki.renameHint')}</small>
        </form>
      )}
      {moving !== null && (
        <form
          className="row"
          aria-label={t('wiki.move')}
          onSubmit={(e) => {
            e.preventDefault();
            void move();
          }}
        >
          <input aria-label={t('wiki.newPath')} value={moving} onChange={(e) => setMoving(e.target.value)} ref={focusOnMount} />
          <button type="submit">{t('wiki.move')}</button>
          <button type="button" onClick={() => setMoving(null)}>
            {t('common.cancel')}
          </button>
          <small className="muted">{t('wiki.moveHint')}</small>
        </form>
      )}
      {deleting && (
        <ConfirmDialog
          message={t('wiki.deleteConfirm', { title: page.title })}
          confirmLabel={t('common.delete')}
          onConfirm={() => void remove()}
          onCancel={() => setDeleting(false)}
        />
      )}
      <p className="muted">
        <code>{page.path}</code> · {t('memory.version', { v: page.version })} · {authorText(t, page.updatedBy)} · {formatDate(page.updated, lang)}
        {page.channel ? ` · ${t('wiki.channel', { name: page.channel })}` : ''}
      </p>
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      {restored && (
        <p className="notice ok" role="status">
          {restored}
        </p>
      )}
      {diff && (
        <section className="wiki-diff" aria-label={t('wiki.changesFrom', { v: diff.from })}>
          <p className="notice warn">
            {t('wiki.changesFrom', { v: diff.from })} (+{diff.added} −{diff.removed}){' '}
            <button className="link" onClick={() => setDiff(null)}>
              {t('memory.backToCurrent')}
            </button>
          </p>
          <DiffView lines={diff.lines} />
        </section>
      )}
      {shown ? (
        <>
          <p className="notice warn">
            {t('memory.viewing', { v: shown.version })}{' '}
            <button className="link" onClick={() => setShown(null)}>
              {t('memory.backToCurrent')}
            </button>
          </p>
          <Markdown text={shown.text} link={link} image={image} title={shown.title} />
        </>
      ) : (
        <Markdown text={page.text} link={link} image={image} title={page.title} />
      )}
      <section className="linked-here">
        <h2>{t('wiki.linkedHere')}</h2>
        {page.linkedHere.length === 0 ? (
          <p className="muted">{t('wiki.noLinks')}</p>
        ) : (
          <ul>
            {page.linkedHere.map((l) => (
              <li key={l.path}>
                <a href={wikiHref(l.path)} onClick={(e) => go(e, l.path)}>
                  {l.title}
                </a>{' '}
                <small className="muted">{l.path}</small>
              </li>
            ))}
          </ul>
        )}
        {page.unlinkedMentions.length > 0 && (
          <ul className="mentions">
            {page.unlinkedMentions.map((m) => (
              <li key={m.path}>
                <a href={wikiHref(m.path)} onClick={(e) => go(e, m.path)}>
                  {m.title}
                </a>{' '}
                <span className="snippet">{m.snippet}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="wiki-history">
        <h2>
          {t('wiki.history')}{' '}
          {!history && (
            <button className="link" onClick={() => void loadHistory()}>
              {t('common.show')}
            </button>
          )}
        </h2>
        {history && (
          <table className="grid history">
            <GridHead columns={[t('preview.version'), t('wiki.pageTitle'), t('preview.author'), t('audit.at')]} />
            <tbody>
              {history.map((v) => (
                <tr key={v.version} data-version={v.version}>
                  <td>
                    v{v.version}
                    {v.current && <small> ({t('preview.current')})</small>}
                  </td>
                  <td>{v.title}</td>
                  <td>{authorLabel(t, v.authorDetail, v.author)}</td>
                  <td>{formatDate(v.time, lang)}</td>
                  <td>
                    <button className="link" onClick={() => void show(v.version)}>
                      {t('common.show')}
                    </button>
                    {!v.current && (
                      <>
                        {' · '}
                        <button className="link" onClick={() => void changes(v.version)}>
                          {t('wiki.changes')}
                        </button>
                      </>
                    )}
                    {!v.current && props.canEdit && (
                      <>
                        {' · '}
                        <button className="link" onClick={() => void restore(v.version)}>
                          {t('wiki.restore')}
                        </button>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </article>
  );
}
