import { useId, useRef, useState } from 'react';
import { filesApi } from '../../api/files.js';
import { uploadFile } from '../../api/upload.js';
import { wikiApi, type WikiSummary } from '../../api/wiki.js';
import { useI18n, type MessageKey } from '../../i18n/index.js';
import { errorText } from '../../format.js';
import { applyFormat, imageMarkdown, openWikiLink, type Edit, type Format } from './markdown-edit.js';
import { slugify } from './markdown.js';

/** The folder a page's pictures are uploaded to: `wiki-assets/` followed by the page's path. */
function assetFolder(pagePath: string): string {
  const p = pagePath
    .trim()
    .split('/')
    .filter((seg) => seg)
    .join('/');
  return p ? `wiki-assets/${p}` : 'wiki-assets';
}

const BUTTONS: Array<{ format: Format; label: MessageKey; glyph: string; keys?: string }> = [
  { format: 'bold', label: 'editor.bold', glyph: 'B', keys: 'Ctrl+B' },
  { format: 'italic', label: 'editor.italic', glyph: 'I', keys: 'Ctrl+I' },
  { format: 'heading', label: 'editor.heading', glyph: 'H' },
  { format: 'link', label: 'editor.link', glyph: '🔗', keys: 'Ctrl+K' },
  { format: 'bullets', label: 'editor.bullets', glyph: '•' },
  { format: 'numbers', label: 'editor.numbers', glyph: '#' },
  { format: 'tasks', label: 'editor.tasks', glyph: '☑' },
  { format: 'code', label: 'editor.code', glyph: '</>' },
  { format: 'quote', label: 'editor.quote', glyph: '❝' },
  { format: 'table', label: 'editor.table', glyph: '▦' },
];

const SHORTCUTS: Record<string, Format> = { b: 'bold', i: 'italic', k: 'link' };
const PICTURE = /^image\/(png|jpeg|gif|webp)$/;
const EXT: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };
const MAX_SUGGESTIONS = 8;

/** A name for an uploaded picture that does not replace a file already there (an upload of the same name would). */
async function freeName(project: string, folder: string, file: File, pasted: boolean): Promise<string> {
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const ext = EXT[file.type] ?? 'png';
  const base = pasted ? `pasted-${stamp}` : file.name.replace(/\.[^.]*$/, '').replace(/[/\\]/g, '-') || 'image';
  const own = pasted ? '' : file.name.slice(file.name.lastIndexOf('.') + 1);
  const name = `${base}.${own && file.name.includes('.') ? own : ext}`;
  try {
    await filesApi.stat(project, `${folder}/${name}`);
  } catch {
    return name;
  }
  return `${base}-${stamp}-${Math.random().toString(36).slice(2, 6)}.${ext}`;
}

/**
 * The markdown text of a wiki page with what a writer expects from a wiki editor: a toolbar (bold, italic,
 * heading, link, lists, code, quote, table) acting on the selection, Ctrl+B/I/K, `[[` completing page names from
 * the wiki, and pictures pasted, dropped or chosen uploaded into the project's files (`wiki-assets/<page path>/`,
 * through the ordinary upload, so the writer's rights and quota apply) and linked at the caret. Edits go through
 * the browser's own text insertion, so Ctrl+Z undoes them like typing.
 *
 * @example
 * <MarkdownField value={text} onChange={setText} project="default" pagePath="handbook/onboarding" />
 */
export function MarkdownField(props: { value: string; onChange: (text: string) => void; project: string; pagePath: string }) {
  const { t } = useI18n();
  const id = useId();
  const area = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const [focusAt, setFocusAt] = useState(0);
  const [pages, setPages] = useState<WikiSummary[] | null>(null);
  const [open, setOpen] = useState<{ from: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  const [uploading, setUploading] = useState(0);
  const [error, setError] = useState<string | null>(null);

  const apply = (edit: Edit) => {
    const ta = area.current;
    if (!ta) return;
    ta.focus();
    ta.setSelectionRange(edit.from, edit.to);
    const expected = ta.value.slice(0, edit.from) + edit.insert + ta.value.slice(edit.to);
    // insertText keeps the browser's undo history; where it is not offered the text is set directly.
    const done = edit.insert ? document.execCommand('insertText', false, edit.insert) : document.execCommand('delete');
    if (!done || ta.value !== expected) {
      ta.value = expected;
      props.onChange(expected);
    }
    ta.setSelectionRange(edit.selStart, edit.selEnd);
  };
  const format = (f: Format) => {
    const ta = area.current;
    if (ta) apply(applyFormat({ text: ta.value, start: ta.selectionStart, end: ta.selectionEnd }, f, t('editor.placeholder')));
  };

  const matches = (() => {
    if (!open || !pages) return [];
    const q = open.query.trim().toLowerCase();
    return pages.filter((p) => !q || p.title.toLowerCase().includes(q) || p.path.toLowerCase().includes(q)).slice(0, MAX_SUGGESTIONS);
  })();
  const listOpen = !!open && matches.length > 0;

  const track = (ta: HTMLTextAreaElement) => {
    const o = ta.selectionStart === ta.selectionEnd ? openWikiLink(ta.value, ta.selectionStart) : null;
    setOpen(o);
    if (!o) return;
    if (o.query !== open?.query) setActive(0);
    if (pages === null) {
      setPages([]);
      wikiApi.list(props.project).then(setPages, () => setPages([]));
    }
  };
  const choose = (page: WikiSummary) => {
    const ta = area.current;
    if (!ta || !open) return;
    // `[[Title]]` when the title leads to the page (the wiki folds it to the path), `[[path|Title]]` otherwise.
    const link = slugify(page.title) === page.path ? `[[${page.title}]]` : `[[${page.path}|${page.title}]]`;
    const caret = open.from + link.length;
    apply({ from: open.from, to: ta.selectionStart, insert: link, selStart: caret, selEnd: caret });
    setOpen(null);
  };

  const upload = async (files: File[], pasted: boolean) => {
    const pictures = files.filter((f) => PICTURE.test(f.type));
    if (!pictures.length) {
      setError(t('editor.notAPicture'));
      return;
    }
    setError(null);
    const folder = assetFolder(props.pagePath);
    for (const file of pictures) {
      setUploading((n) => n + 1);
      try {
        const name = await freeName(props.project, folder, file, pasted);
        const saved = await uploadFile(props.project, folder, new File([file], name, { type: file.type }));
        const ta = area.current;
        if (ta) {
          const md = imageMarkdown(saved.path, name.replace(/\.[^.]*$/, ''));
          const at = ta.selectionEnd;
          apply({ from: ta.selectionStart, to: at, insert: md, selStart: ta.selectionStart + md.length, selEnd: ta.selectionStart + md.length });
        }
      } catch (e) {
        setError(errorText(e, t));
      } finally {
        setUploading((n) => n - 1);
      }
    }
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLTextAreaElement>) => {
    if (listOpen) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const n = matches.length;
        setActive((a) => (e.key === 'ArrowDown' ? (a + 1) % n : (a - 1 + n) % n));
        return;
      }
      if (e.key === 'Enter' || e.key === 'Tab') {
        e.preventDefault();
        choose(matches[Math.min(active, matches.length - 1)]!);
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        setOpen(null);
        return;
      }
    }
    const f = (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey ? SHORTCUTS[e.key.toLowerCase()] : undefined;
    if (f) {
      e.preventDefault();
      format(f);
    }
  };

  // The toolbar is one stop for Tab; arrows move between its buttons (the ARIA toolbar pattern).
  const onToolbarKey = (e: React.KeyboardEvent<HTMLDivElement>) => {
    const count = BUTTONS.length + 1;
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    const to = e.key === 'Home' ? 0 : e.key === 'End' ? count - 1 : step ? (focusAt + step + count) % count : -1;
    if (to < 0) return;
    e.preventDefault();
    setFocusAt(to);
    (e.currentTarget.querySelectorAll('button')[to] as HTMLButtonElement | undefined)?.focus();
  };

  const listId = `${id}-pages`;
  return (
    <div className="md-field">
      <span className="md-label" id={`${id}-label`}>
        {t('wiki.text')}
      </span>
      <div className="md-toolbar" role="toolbar" aria-label={t('editor.toolbar')} aria-controls={`${id}-text`} onKeyDown={onToolbarKey}>
        {BUTTONS.map((b, i) => (
          <button
            key={b.format}
            type="button"
            aria-label={t(b.label)}
            title={b.keys ? `${t(b.label)} (${b.keys})` : t(b.label)}
            tabIndex={focusAt === i ? 0 : -1}
            onFocus={() => setFocusAt(i)}
            onClick={() => format(b.format)}
          >
            <span aria-hidden="true">{b.glyph}</span>
          </button>
        ))}
        <button
          type="button"
          aria-label={t('editor.image')}
          title={t('editor.imageHint')}
          tabIndex={focusAt === BUTTONS.length ? 0 : -1}
          onFocus={() => setFocusAt(BUTTONS.length)}
          onClick={() => picker.current?.click()}
        >
          <span aria-hidden="true">🖼</span>
        </button>
        <input
          ref={picker}
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          multiple
          hidden
          aria-label={t('editor.image')}
          onChange={(e) => {
            const files = [...(e.currentTarget.files ?? [])];
            e.currentTarget.value = '';
            if (files.length) void upload(files, false);
          }}
        />
      </div>
      <textarea
        ref={area}
        id={`${id}-text`}
        rows={16}
        aria-labelledby={`${id}-label`}
        aria-autocomplete="list"
        aria-controls={listOpen ? listId : undefined}
        aria-activedescendant={listOpen ? `${id}-opt-${active}` : undefined}
        value={props.value}
        onChange={(e) => {
          props.onChange(e.currentTarget.value);
          track(e.currentTarget);
        }}
        onClick={(e) => track(e.currentTarget)}
        onBlur={() => setOpen(null)}
        onKeyDown={onKeyDown}
        onPaste={(e) => {
          const files = [...(e.clipboardData?.files ?? [])];
          if (!files.some((f) => f.type.startsWith('image/'))) return;
          e.preventDefault();
          void upload(files, true);
        }}
        onDragOver={(e) => {
          if (e.dataTransfer?.types.includes('Files')) e.preventDefault();
        }}
        onDrop={(e) => {
          const files = [...(e.dataTransfer?.files ?? [])];
          if (!files.length) return;
          e.preventDefault();
          void upload(files, false);
        }}
      />
      {listOpen && (
        <ul className="md-suggest" role="listbox" id={listId} aria-label={t('editor.pages')}>
          {matches.map((p, i) => (
            <li
              key={p.path}
              id={`${id}-opt-${i}`}
              role="option"
              aria-selected={i === active}
              // Chosen on mousedown, before the textarea's blur closes the list.
              onMouseDown={(e) => {
                e.preventDefault();
                choose(p);
              }}
            >
              {p.title} <span className="muted">{p.path}</span>
            </li>
          ))}
        </ul>
      )}
      {uploading > 0 && (
        <p className="notice" role="status">
          {t('editor.uploading')}
        </p>
      )}
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
