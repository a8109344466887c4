import { useEffect, useState } from 'react';
import { getToken } from '../api/client.js';
import { filesApi, type Project } from '../api/files.js';
import { agentsApi, type Agent } from '../api/agents.js';
import { oauthApi, rememberReturnPath } from '../api/oauth.js';
import { useI18n } from '../i18n/index.js';
import { navigate } from '../router.js';
import { errorText } from '../format.js';
import { LanguagePicker } from '../components/language-picker.js';

/** The authorization request as the server's `/oauth/authorize` passed it on, after checking it. */
function requestInUrl() {
  const q = new URLSearchParams(location.search);
  return {
    clientId: q.get('client_id') ?? '',
    redirectUri: q.get('redirect_uri') ?? '',
    codeChallenge: q.get('code_challenge') ?? '',
    resource: q.get('resource') ?? '',
    scope: q.get('scope') ?? undefined,
    state: q.get('state') ?? undefined,
  };
}

/**
 * /consent: an application (an MCP client that registered itself) asks to act as an agent at /mcp. The signed-in
 * person picks the project and the agent and allows or denies; the server checks the client, its redirect URI
 * and that the person may mint that agent's tokens, and answers where to send the browser with a one-time code.
 * Not signed in: the sign-in page first, then back here.
 *
 * @example
 * {route.page === 'consent' && <ConsentPage />}
 */
export function ConsentPage() {
  const { t } = useI18n();
  const [request] = useState(requestInUrl);
  const [client, setClient] = useState<{ name: string | null; redirectUri: string } | null>(null);
  const [projects, setProjects] = useState<Project[] | null>(null);
  const [project, setProject] = useState('');
  const [agents, setAgents] = useState<Agent[] | null>(null);
  const [agent, setAgent] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    // Any 401 below sends the person to the sign-in page; they come back here afterwards.
    rememberReturnPath(location.pathname + location.search);
    if (!getToken()) return navigate('/login', true);
    Promise.all([oauthApi.client(request.clientId, request.redirectUri), filesApi.projects()]).then(
      ([c, ps]) => {
        setClient(c);
        setProjects(ps);
        setProject(ps.find((p) => p.name === 'default')?.id ?? ps[0]?.id ?? '');
      },
      (e: unknown) => setError(errorText(e, t)),
    );
  }, []);

  useEffect(() => {
    if (!project) return;
    setAgents(null);
    agentsApi.list(project).then(
      (l) => {
        setAgents(l);
        setAgent(l[0]?.id ?? '');
      },
      (e: unknown) => setError(errorText(e, t)),
    );
  }, [project]);

  const allow = async () => {
    setBusy(true);
    try {
      const { redirectTo } = await oauthApi.approve(project, { ...request, codeChallengeMethod: 'S256', agent });
      location.assign(redirectTo);
    } catch (e) {
      setError(errorText(e, t));
      setBusy(false);
    }
  };
  const deny = () => {
    if (!client) return;
    const to = new URL(client.redirectUri);
    to.searchParams.set('error', 'access_denied');
    if (request.state !== undefined) to.searchParams.set('state', request.state);
    location.assign(to.href);
  };

  const name = client?.name || request.clientId;
  return (
    <main className="login consent">
      <div className="login-box">
        <div className="login-top">
          <h1>{t('consent.title')}</h1>
          <LanguagePicker />
        </div>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        {!client || !projects ? (
          !error && <p role="status">{t('common.loading')}</p>
        ) : (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void allow();
            }}
          >
            <p>{t('consent.asks', { name })}</p>
            <p className="muted">{t('consent.redirect', { host: new URL(client.redirectUri).host })}</p>
            <label>
              {t('nav.project')}{' '}
              <select name="project" value={project} onChange={(e) => setProject(e.target.value)}>
                {projects.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              {t('consent.agent')}{' '}
              <select name="agent" value={agent} onChange={(e) => setAgent(e.target.value)} disabled={!agents?.length}>
                {(agents ?? []).map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name}
                  </option>
                ))}
              </select>
            </label>
            {agents && agents.length === 0 && <p className="muted">{t('consent.noAgents')}</p>}
            <p className="muted">{t('consent.revokeLater')}</p>
            <div className="row">
              <button type="submit" disabled={busy || !agent}>
                {t('consent.allow')}
              </button>
              <button type="button" onClick={deny} disabled={busy}>
                {t('consent.deny')}
              </button>
            </div>
          </form>
        )}
      </div>
    </main>
  );
}
