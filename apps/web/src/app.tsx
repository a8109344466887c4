import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { getToken, onUnauthorized, setToken } from './api/client.js';
import { SignInAgain } from './components/sign-in-again.js';
import { filesApi, type Me, type Project } from './api/files.js';
import { useI18n } from './i18n/index.js';
import type { MessageKey } from './i18n/en.js';
import { navigate, useRoute, type Page } from './router.js';
import { SessionContext, sessionFor, type Session } from './session.js';
import { errorText } from './format.js';
import { LanguagePicker } from './components/language-picker.js';
import { chooseProject, MY_FILES, PROJECT_KEY } from './project-choice.js';
import { LoginPage } from './pages/login-page.js';
import { FilesPage } from './pages/files/files-page.js';
import { pageChunks } from './pages/page-chunks.js';

// Files is where everyone lands; every other page is its own chunk, loaded the first time it is opened.
const MemoryPage = lazy(() => pageChunks.memory().then((m) => ({ default: m.MemoryPage })));
const WikiPage = lazy(() => pageChunks.wiki().then((m) => ({ default: m.WikiPage })));
const AgentsPage = lazy(() => pageChunks.agents().then((m) => ({ default: m.AgentsPage })));
const AuditPage = lazy(() => pageChunks.audit().then((m) => ({ default: m.AuditPage })));
const SearchPage = lazy(() => pageChunks.search().then((m) => ({ default: m.SearchPage })));
const MembersPage = lazy(() => pageChunks.members().then((m) => ({ default: m.MembersPage })));

/** What a volume offers: its files, its search and its audit log (it has no wiki, memory, agents or members). */
const VOLUME_PAGES = new Set<Page>(['files', 'audit', 'search']);
const nav: Array<{ page: Page; key: MessageKey }> = [
  { page: 'files', key: 'nav.files' },
  { page: 'wiki', key: 'nav.wiki' },
  { page: 'memory', key: 'nav.memory' },
  { page: 'agents', key: 'nav.agents' },
  { page: 'members', key: 'nav.members' },
  { page: 'audit', key: 'nav.audit' },
];

/**
 * The shell: sign-in, the project and its role, the navigation, and the page of the current route.
 *
 * @example
 * createRoot(el).render(<I18nProvider><App /></I18nProvider>);
 */
export function App() {
  const { t } = useI18n();
  const route = useRoute();
  const [session, setSession] = useState<Session | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [epoch, setEpoch] = useState(0);
  // The token stopped working while a page was open: ask again over the page instead of leaving it.
  const [expired, setExpired] = useState(false);
  const signedIn = useRef(false);
  signedIn.current = session !== null;

  const load = useCallback(async () => {
    if (!getToken()) return navigate('/login', true);
    try {
      const [me, projects] = await Promise.all([filesApi.me(), filesApi.projects()]);
      const wanted = localStorage.getItem(PROJECT_KEY);
      if (wanted === MY_FILES) {
        const mine = await myFilesSession(me, projects).catch(() => null);
        if (mine) {
          setSession(mine);
          setError(null);
          return;
        }
      }
      const project = chooseProject(projects, wanted);
      if (!project) throw new Error('no project');
      setSession(sessionFor(me, projects, project));
      setError(null);
    } catch (e) {
      setError(errorText(e, t));
    }
  }, [t]);

  useEffect(
    () =>
      onUnauthorized(() => {
        if (signedIn.current) return setExpired(true);
        setToken(null);
        setSession(null);
        navigate('/login', true);
      }),
    [],
  );
  // Load the session once per sign-in (epoch), not on every route change.
  useEffect(() => {
    if (route.page !== 'login') void load();
  }, [epoch]);

  if (route.page === 'login') return <LoginPage onSignedIn={() => setEpoch((n) => n + 1)} />;
  if (!session)
    return (
      <div className="boot">
        {error ? (
          <p className="error" role="alert">
            {error}
          </p>
        ) : (
          t('common.loading')
        )}
      </div>
    );

  const pickProject = (id: string) => {
    if (id === MY_FILES) {
      myFilesSession(session.me, session.projects).then(
        (mine) => {
          localStorage.setItem(PROJECT_KEY, MY_FILES);
          setSession(mine);
          if (!VOLUME_PAGES.has(route.page)) navigate('/files');
        },
        (e: unknown) => setError(errorText(e, t)),
      );
      return;
    }
    const p = session.projects.find((x) => x.id === id);
    if (!p) return;
    localStorage.setItem(PROJECT_KEY, p.id);
    setSession(sessionFor(session.me, session.projects, p));
  };
  const logout = () => {
    setExpired(false);
    setToken(null);
    setSession(null);
    navigate('/login');
  };

  return (
    <SessionContext.Provider value={session}>
      {expired && (
        <SignInAgain
          userId={session.me.id}
          onSignedIn={(same) => {
            setExpired(false);
            if (!same) {
              setSession(null);
              setEpoch((n) => n + 1);
            }
          }}
          onSignOut={logout}
        />
      )}
      <header className="topbar">
        <span className="brand">{t('app.title')}</span>
        <nav>
          {nav
            .filter((n) => !session.volume || VOLUME_PAGES.has(n.page))
            .map((n) => (
              <a
                key={n.page}
                href={`/${n.page}`}
                className={route.page === n.page ? 'active' : ''}
                aria-current={route.page === n.page ? 'page' : undefined}
                onClick={(e) => {
                  e.preventDefault();
                  navigate(`/${n.page}`);
                }}
              >
                {t(n.key)}
              </a>
            ))}
        </nav>
        <span className="spacer" />
        <form
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            const q = new FormData(e.currentTarget).get('q');
            if (typeof q === 'string' && q.trim()) navigate(`/search?q=${encodeURIComponent(q.trim())}`);
          }}
        >
          <input name="q" type="search" className="global-search" aria-label={t('search.placeholder')} placeholder={t('search.placeholder')} />
        </form>
        {(session.projects.length > 1 || session.volume || session.me.kind === 'user') && (
          <select aria-label={t('nav.project')} value={session.volume ? MY_FILES : session.project.id} onChange={(e) => pickProject(e.target.value)}>
            {session.projects.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
            <option value={MY_FILES}>{t('nav.myFiles')}</option>
          </select>
        )}
        <span className="who">
          {session.me.name} · {t(`role.${session.role}` as MessageKey)}
        </span>
        <LanguagePicker />
        <button className="link" onClick={logout}>
          {t('nav.logout')}
        </button>
      </header>
      <main key={session.project.id}>
        <Suspense fallback={<p role="status">{t('common.loading')}</p>}>
          {route.page === 'files' && <FilesPage />}
          {!session.volume && route.page === 'memory' && <MemoryPage />}
          {!session.volume && route.page === 'wiki' && <WikiPage path={route.rest} />}
          {!session.volume && route.page === 'agents' && <AgentsPage />}
          {!session.volume && route.page === 'members' && <MembersPage />}
          {route.page === 'audit' && <AuditPage />}
          {route.page === 'search' && <SearchPage key={route.search} />}
        </Suspense>
      </main>
    </SessionContext.Provider>
  );
}

/** The session in the signed-in person's own files: the volume the server resolves for them, with its role. */
async function myFilesSession(me: Me, projects: Project[]): Promise<Session> {
  const v = await filesApi.myFiles();
  const project: Project = { id: v.volumeId, name: v.name, orgId: v.organizationId, quotaBytes: null, createdAt: '', role: v.access };
  return { ...sessionFor(me, projects, project), volume: true };
}
