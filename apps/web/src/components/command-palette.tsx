import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { filesApi, type FileInfo } from '../api/files.js';
import { wikiApi, wikiHref, type WikiSummary } from '../api/wiki.js';
import { agentsApi } from '../api/agents.js';
import { requestPageAction } from '../commands.js';
import { fuzzyScore } from '../fuzzy.js';
import { useI18n } from '../i18n/index.js';
import type { MessageKey } from '../i18n/en.js';
import { withCommandKey } from '../keys.js';
import { navigate, useRoute } from '../router.js';
import { useSession } from '../session.js';
import { useFocusTrap } from './focus-trap.js';
import { searchHref } from './global-search.js';

type Group = 'action' | 'project' | 'file' | 'wiki' | 'agent';
interface Item {
  key: string;
  group: Group;
  label: string;
  /** What the fuzzy match looks at (a file's path, a page's path and title). */
  match: string;
  detail?: string;
  run: () => void;
}

/** At most this many of a kind, so a big project's files do not push pages and actions out of sight. */
const PER_GROUP = 8;
/** A pause in typing (ms) before the files are asked for: one request per word, not per key. */
const TYPING_PAUSE_MS = 150;

/**
 * The command palette (issue 31): Ctrl/Cmd+K anywhere opens it (and closes it). It finds files by name or path,
 * wiki pages, agents and actions by a few letters in order, and runs the chosen one: Up and Down choose, Enter
 * runs, Esc closes. A dialog with a combobox and its listbox (WAI-ARIA combobox pattern).
 *
 * @example
 * <CommandPalette onPickProject={pickProject} onSignOut={logout} />
 */
export function CommandPalette(props: { onPickProject: (id: string) => void; onSignOut: () => void }) {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // A field that took the key itself (the wiki editor's Ctrl+K makes a link) keeps it.
      if (e.defaultPrevented || !withCommandKey(e, 'k')) return;
      e.preventDefault();
      setOpen((o) => !o);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return open ? <PaletteDialog {...props} onClose={() => setOpen(false)} /> : null;
}

function PaletteDialog(props: { onPickProject: (id: string) => void; onSignOut: () => void; onClose: () => void }) {
  const { t } = useI18n();
  const session = useSession();
  const { project, projects, canEdit, isAdmin, volume, me } = session;
  const route = useRoute();
  const box = useRef<HTMLDivElement>(null);
  useFocusTrap(box, props.onClose);
  const id = useId();
  const [q, setQ] = useState('');
  const [active, setActive] = useState(0);
  const [pages, setPages] = useState<WikiSummary[]>([]);
  const [agents, setAgents] = useState<Array<{ id: string; name: string }>>([]);
  const [files, setFiles] = useState<FileInfo[]>([]);

  useEffect(() => {
    if (volume) return;
    wikiApi.list(project.id).then(setPages, () => undefined);
    agentsApi.list(project.id).then(
      (list) => setAgents(list.map((a) => ({ id: a.id, name: a.name }))),
      () => undefined,
    );
  }, [project.id, volume]);
  useEffect(() => {
    if (!q.trim()) return setFiles([]);
    let gone = false;
    const timer = setTimeout(() => {
      // Names hold the letters in order, not always the run typed: ask for the longest word and rank here.
      const word = q
        .trim()
        .split(/\s+/)
        .sort((a, b) => b.length - a.length)[0]!;
      filesApi.find(project.id, word).then(
        (r) => !gone && setFiles(r.files),
        () => undefined,
      );
    }, TYPING_PAUSE_MS);
    return () => {
      gone = true;
      clearTimeout(timer);
    };
  }, [q, project.id]);

  const run = (f: () => void) => () => {
    props.onClose();
    f();
  };
  const go = (to: string) => run(() => navigate(to));
  const onFiles = (action: 'upload' | 'newFolder') =>
    run(() => {
      if (route.page !== 'files') navigate('/files');
      requestPageAction(action);
    });
  const items = useMemo(() => {
    const actions: Array<[MessageKey, () => void, boolean]> = [
      ['palette.upload', onFiles('upload'), canEdit],
      ['palette.newFolder', onFiles('newFolder'), canEdit],
      [
        'palette.newPage',
        run(() => {
          if (route.page !== 'wiki') navigate('/wiki');
          requestPageAction('newPage');
        }),
        canEdit && !volume,
      ],
      ['palette.goFiles', go('/files'), true],
      ['palette.goMembers', go('/members'), !volume],
      ['palette.goAudit', go('/audit'), true],
      ['palette.goAgents', go('/agents'), !volume],
      ['palette.goMemory', go('/memory'), !volume],
      ['palette.goAccount', go('/account'), me.kind === 'user'],
      ['palette.signOut', run(props.onSignOut), true],
    ];
    const all: Item[] = [
      ...actions.filter(([, , shown]) => shown).map(([key, f]) => ({ key, group: 'action' as const, label: t(key), match: t(key), run: f })),
      ...projects
        .filter((p) => p.id !== project.id)
        .map((p) => {
          const label = t('palette.switchProject', { name: p.name });
          return { key: `project:${p.id}`, group: 'project' as const, label, match: label, run: run(() => props.onPickProject(p.id)) };
        }),
      ...files.map((f) => ({
        key: `file:${f.path}`,
        group: 'file' as const,
        label: f.name,
        detail: f.path,
        match: f.path,
        run: go(`/files?path=${encodeURIComponent(f.path)}`),
      })),
      ...pages.map((p) => ({
        key: `wiki:${p.path}`,
        group: 'wiki' as const,
        label: p.title,
        detail: p.path,
        match: `${p.title} ${p.path}`,
        run: go(wikiHref(p.path)),
      })),
      ...agents.map((a) => ({ key: `agent:${a.id}`, group: 'agent' as const, label: a.name, match: a.name, run: go(`/agents/${encodeURIComponent(a.id)}`) })),
    ];
    if (!q.trim()) return all.filter((i) => i.group === 'action' || i.group === 'project');
    const scored = all.flatMap((i) => {
      const s = Math.max(fuzzyScore(q, i.label) ?? -Infinity, fuzzyScore(q, i.match) ?? -Infinity);
      return s === -Infinity ? [] : [{ i, s }];
    });
    scored.sort((a, b) => b.s - a.s);
    const taken = new Map<Group, number>();
    const found = scored.flatMap(({ i }) => {
      const n = taken.get(i.group) ?? 0;
      taken.set(i.group, n + 1);
      return n < PER_GROUP ? [i] : [];
    });
    // The one search, for words no name has.
    const label = t('palette.searchAll', { q: q.trim() });
    return [...found, { key: 'search', group: 'action' as const, label, match: label, run: go(searchHref(q.trim())) }];
  }, [q, files, pages, agents, projects, project.id, canEdit, isAdmin, volume, me.kind, route.page, t]);

  useEffect(() => setActive(0), [q]);
  const chosen = Math.min(active, items.length - 1);
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    list.current?.querySelector(`[data-index="${chosen}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [chosen]);
  const onKey = (e: React.KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((chosen + step + items.length) % Math.max(1, items.length));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      items[chosen]?.run();
    }
  };

  return (
    <div className="modal-back palette-back" onMouseDown={(e) => e.target === e.currentTarget && props.onClose()}>
      <div ref={box} className="modal palette" role="dialog" aria-modal="true" aria-label={t('palette.title')}>
        <input
          type="text"
          role="combobox"
          aria-expanded="true"
          aria-controls={`${id}-list`}
          aria-autocomplete="list"
          aria-activedescendant={items.length ? `${id}-${chosen}` : undefined}
          aria-label={t('palette.placeholder')}
          placeholder={t('palette.placeholder')}
          autoComplete="off"
          value={q}
          onChange={(e) => setQ(e.currentTarget.value)}
          onKeyDown={onKey}
        />
        <ul ref={list} id={`${id}-list`} role="listbox" aria-label={t('palette.title')}>
          {items.map((item, n) => (
            <li
              key={item.key}
              id={`${id}-${n}`}
              data-index={n}
              role="option"
              aria-selected={n === chosen}
              className={n === chosen ? 'active' : ''}
              onMouseMove={() => n !== chosen && setActive(n)}
              onClick={item.run}
            >
              <span className="tag">{t(`palette.group.${item.group}` as MessageKey)}</span> {item.label}
              {item.detail && item.detail !== item.label && <small className="muted"> {item.detail}</small>}
            </li>
          ))}
        </ul>
        {items.length === 0 && <p className="empty">{t('palette.none')}</p>}
      </div>
    </div>
  );
}
