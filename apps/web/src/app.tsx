import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, arrived, getToken, onUnauthorized, setToken } from './api/client.js';
import { OfflineNotice, useOffline } from './components/offline-notice.js';
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
import { JoinPage } from './pages/join-page.js';
import { FilesPage } from './pages/files/files-page.js';
import { pageChunks } from './pages/page-chunks.js';
import { volumesApi, type VolumeScope } from './api/volumes.js';
import { VolumePicker } from './components/volume-picker.js';
import { GlobalSearch } from './components/global-search.js';
import { CommandPalette } from './components/command-palette.js';
import { Shortcuts } from './components/shortcuts.js';

// Files is where everyone lands; every other page is its own chunk, loaded the first time it is opened.
const MemoryPage = lazy(() => pageChunks.memory().then((m) => ({ default: m.MemoryPage })));
const WikiPage = lazy(() => pageChunks.wiki().then((m) => ({ default: m.WikiPage })));
const AgentsPage = lazy(() => pageChunks.agents().then((m) => ({ default: m.AgentsPage })));
const AuditPage = lazy(() => pageChunks.audit().then((m) => ({ default: m.AuditPage })));
const SearchPage = lazy(() => pageChunks.search().then((m) => ({ default: m.SearchPage })));
const MembersPage = lazy(() => pageChunks.members().then((m) => ({ default: m.MembersPage })));
const ConsentPage = lazy(() => pageChunks.consent().then((m) => ({ default: m.ConsentPage })));
const AccountPage = lazy(() => pageChunks.account().then((m) => ({ default: m.AccountPage })));
const TrashPage = lazy(() => pageChunks.trash().then((m) => ({ default: m.TrashPage })));

/** The query parameter that names the volume beyond projects a page shows, so a link to it and a reload keep it. */
const VOLUME_PARAM = 'volume';
/** What a volume offers: its files and their trash, its search and its audit log (it has no wiki, memory, agents or members). */
const VOLUME_PAGES = new Set<Page>(['files', 'trash', 'audit', 'search']);
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
  // The session from the first load's answers when they are in already (usually): the shell and the page then
  // render whole in one go. The load below still runs and settles anything this could not (volumes, errors).
  const [session, setSession] = useState<Session | null>(() =>
    route.page === 'login' || route.page === 'consent' || route.page === 'join' ? null : sessionFromArrived(),
  );
  const [error, setError] = useState<string | null>(null);
  // The server could not be reached at all (offline, a reload served by the service worker's shell).
  const [unreachable, setUnreachable] = useState(false);
  const offline = useOffline();
  const [epoch, setEpoch] = useState(0);
  // The token stopped working while a page was open: ask again over the page instead of leaving it.
  const [expired, setExpired] = useState(false);
  const signedIn = useRef(false);
  // The server has answered this sign-in's load: until then the screen may be last visit's (warm-cache.ts), and a
  // 401 means signed out (to the sign-in page), not "sign in again" over what was on screen.
  const confirmed = useRef(false);
  const lastProject = useRef<Project | null>(null);
  signedIn.current = session !== null;

  const load = useCallback(async () => {
    if (!getToken()) return navigate('/login', true);
    let failure: unknown = null;
    try {
      const [me, projects] = await Promise.all([filesApi.me(), filesApi.projects()]);
      const linked = volumeInUrl();
      const wanted = linked ?? localStorage.getItem(PROJECT_KEY);
      if (wanted === MY_FILES || wanted?.startsWith('vol_')) {
        const opened = wanted === MY_FILES ? myFilesSession(me, projects) : volumesApi.get(wanted).then((v) => volumeSession(me, projects, v));
        const inVolume = await opened.catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
        if (!(inVolume instanceof Error)) {
          confirmed.current = true;
          setSession(inVolume);
          setVolumeInUrl(inVolume.project.id);
          setError(null);
          return;
        }
        // A link to a volume this person may not open says only "not found" (as for one that does not exist),
        // over their project.
        if (linked) failure = inVolume;
        setVolumeInUrl(null);
      }
      const project = chooseProject(projects, wanted);
      if (!project) throw new Error('no project');
      confirmed.current = true;
      // Remembered even when nobody picked it, so that the next visit asks for its folder at once (first-load.ts);
      // a volume picked before stays remembered even when it could not be opened this time.
      if (!linked && wanted !== MY_FILES && !wanted?.startsWith('vol_')) localStorage.setItem(PROJECT_KEY, project.id);
      // The same answers as the first render's session: keep that one, so nothing below renders again.
      setSession((now) =>
        now && !now.volume && now.me === me && now.projects === projects && now.project === project ? now : sessionFor(me, projects, project),
      );
      setError(failure ? errorText(failure, t) : null);
      setUnreachable(false);
    } catch (e) {
      setError(errorText(e, t));
      setUnreachable(e instanceof ApiError && e.code === 'network');
    }
  }, [t]);
  const retry = useCallback(() => void load(), [load]);

  useEffect(
    () =>
      onUnauthorized(() => {
        if (signedIn.current && confirmed.current) return setExpired(true);
        // A refused invitation code is the join page's own error to show, not a reason to leave it.
        if (location.pathname === '/join') return;
        setToken(null);
        setSession(null);
        navigate('/login', true);
      }),
    [],
  );
  // Load the session once per sign-in (epoch), not on every route change.
  useEffect(() => {
    if (route.page !== 'login' && route.page !== 'consent' && route.page !== 'join') void load();
  }, [epoch]);

  // Pages navigate by path alone: while in a volume, its ID goes back into the URL, so a reload or a copied link keeps it.
  useEffect(() => {
    if (!session) return;
    const inUrl = volumeInUrl();
    if (session.volume && !inUrl) setVolumeInUrl(session.project.id);
    else if (inUrl && inUrl !== session.project.id) void load();
  }, [route, session]);

  if (route.page === 'login') return <LoginPage onSignedIn={() => setEpoch((n) => n + 1)} />;
  // An invitation link: the invited person sets a password and is signed in (issue 31).
  if (route.page === 'join') return <JoinPage onSignedIn={() => setEpoch((n) => n + 1)} />;
  // An application asks to act as an agent (MCP authorization): the person consents outside the project shell.
  if (route.page === 'consent')
    return (
      <Suspense fallback={<p role="status">{t('common.loading')}</p>}>
        <ConsentPage />
      </Suspense>
    );
  // Nothing loaded: offline or refused, the shell's bar shows with the reason and Retry, never a bare sentence.
  if (!session && (error || offline))
    return (
      <>
        <header className="topbar">
          <span className="brand">{t('app.title')}</span>
          <span className="spacer" />
          <LanguagePicker />
        </header>
        <main className="boot">
          {offline || unreachable ? (
            <OfflineNotice onRetry={retry} />
          ) : (
            <div className="notice error" role="alert">
              {error}{' '}
              <button type="button" onClick={retry}>
                {t('load.retry')}
              </button>
            </div>
          )}
        </main>
      </>
    );
  if (!session) return <div className="boot">{t('common.loading')}</div>;

  const enterVolume = (next: Session) => {
    localStorage.setItem(PROJECT_KEY, next.scope?.catalog === 'users' ? MY_FILES : next.project.id);
    setVolumeInUrl(next.project.id);
    if (!session.volume) lastProject.current = session.project;
    setSession(next);
    setError(null);
    if (!VOLUME_PAGES.has(route.page)) navigate('/files');
  };
  const pickProject = (id: string) => {
    if (id === MY_FILES || id.startsWith('vol_')) {
      (id === MY_FILES ? myFilesSession(session.me, session.projects) : volumesApi.get(id).then((v) => volumeSession(session.me, session.projects, v))).then(
        enterVolume,
        (e: unknown) => setError(errorText(e, t)),
      );
      return;
    }
    const p = session.projects.find((x) => x.id === id);
    if (!p) return;
    localStorage.setItem(PROJECT_KEY, p.id);
    setVolumeInUrl(null);
    setError(null);
    setSession(sessionFor(session.me, session.projects, p));
  };
  // The project whose volumes the picker lists: the current one, a volume's own, or the last one picked.
  const home = !session.volume
    ? session.project
    : (session.projects.find((p) => p.id === session.scope?.projectId) ??
      lastProject.current ??
      session.projects.find((p) => p.name === 'default') ??
      session.projects[0] ??
      null);
  const logout = () => {
    // The server revokes the session first (issue 26): a copy of the token stops working too.
    void filesApi
      .logout()
      .catch(() => undefined)
      .finally(() => {
        setExpired(false);
        setToken(null);
        setSession(null);
        navigate('/login');
      });
  };

  return (
    <SessionContext.Provider value={session}>
      {expired && (
        <SignInAgain
          userId={session.me.id}
          userName={session.me.name}
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
      <CommandPalette onPickProject={pickProject} onSignOut={logout} />
      <Shortcuts />
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
        <GlobalSearch />
        {(session.projects.length > 1 || session.volume || session.me.kind === 'user') && (
          <VolumePicker
            session={session}
            home={home}
            onPick={pickProject}
            onCreated={(scope) => enterVolume(volumeSession(session.me, session.projects, scope))}
            onDeleted={() => pickProject(home?.id ?? '')}
          />
        )}
        <span className="who">
          {session.me.name} · {t(`role.${session.role}` as MessageKey)}
        </span>
        <LanguagePicker />
        {session.me.kind === 'user' && (
          <a
            href="/account"
            className="account-link"
            aria-current={route.page === 'account' ? 'page' : undefined}
            onClick={(e) => {
              e.preventDefault();
              navigate('/account');
            }}
          >
            {t('account.title')}
          </a>
        )}
        <button className="link" onClick={logout}>
          {t('nav.logout')}
        </button>
      </header>
      <main key={session.project.id}>
        {offline && <OfflineNotice onRetry={retry} />}
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <Suspense fallback={<p role="status">{t('common.loading')}</p>}>
          {route.page === 'files' && <FilesPage />}
          {route.page === 'trash' && <TrashPage />}
          {!session.volume && route.page === 'memory' && <MemoryPage />}
          {!session.volume && route.page === 'wiki' && <WikiPage path={route.rest} />}
          {!session.volume && route.page === 'agents' && <AgentsPage />}
          {!session.volume && route.page === 'members' && <MembersPage />}
          {route.page === 'audit' && <AuditPage />}
          {route.page === 'search' && <SearchPage />}
          {route.page === 'account' && <AccountPage />}
        </Suspense>
      </main>
    </SessionContext.Provider>
  );
}

/** The session in a volume beyond projects (R1): its scope as the server resolved it, with the person's role there. */
function volumeSession(me: Me, projects: Project[], v: VolumeScope): Session {
  const project: Project = { id: v.volumeId, name: v.name, orgId: v.organizationId, quotaBytes: null, createdAt: '', role: v.access };
  return { ...sessionFor(me, projects, project), volume: true, scope: v };
}

/** The session in the signed-in person's own files: the volume the server resolves for them, with its role. */
async function myFilesSession(me: Me, projects: Project[]): Promise<Session> {
  return volumeSession(me, projects, await filesApi.myFiles());
}

/**
 * The session a project opens with, built from the first load's answers if both are in; null while one is
 * still on the wire, or when a volume is to be opened (the load resolves that).
 */
function sessionFromArrived(): Session | null {
  if (!getToken()) return null;
  const wanted = volumeInUrl() ?? localStorage.getItem(PROJECT_KEY);
  if (wanted === MY_FILES || wanted?.startsWith('vol_')) return null;
  const me = arrived(() => filesApi.me());
  const projects = arrived(() => filesApi.projects());
  const project = projects && chooseProject(projects, wanted);
  return me && projects && project ? sessionFor(me, projects, project) : null;
}

function volumeInUrl(): string | null {
  const id = new URLSearchParams(location.search).get(VOLUME_PARAM);
  return id?.startsWith('vol_') ? id : null;
}

/** Puts the volume's ID in the address (or takes it out, for a project) without a new history entry. */
function setVolumeInUrl(id: string | null): void {
  const q = new URLSearchParams(location.search);
  if ((q.get(VOLUME_PARAM) ?? null) === id) return;
  if (id) q.set(VOLUME_PARAM, id);
  else q.delete(VOLUME_PARAM);
  // A file previewed in one volume is not the same-named file of another (nor of the project).
  q.delete('preview');
  const search = q.toString();
  history.replaceState(null, '', `${location.pathname}${search ? `?${search}` : ''}${location.hash}`);
}
