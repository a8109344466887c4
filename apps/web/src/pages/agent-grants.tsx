import { useCallback, useEffect, useState } from 'react';
import type { Agent } from '../api/agents.js';
import { oauthApi, type OAuthGrant } from '../api/oauth.js';
import { useI18n } from '../i18n/index.js';
import { useSession } from '../session.js';
import { errorText, formatDate } from '../format.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { LoadState } from '../components/load-state.js';

/**
 * The applications a person allowed to act as this agent at /mcp (OAuth grants): who allowed them, when they
 * were last used, and Revoke, which refuses their tokens at once. The server lists only grants the viewer may revoke.
 */
export function AgentGrants({ agent, canManage }: { agent: Agent; canManage: boolean }) {
  const { project } = useSession();
  const { lang, t } = useI18n();
  const [grants, setGrants] = useState<OAuthGrant[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<OAuthGrant | null>(null);
  const load = useCallback(() => {
    oauthApi.grants(project.id).then(
      (l) => {
        setGrants(l.filter((g) => g.agent === agent.id));
        setError(null);
      },
      (e: unknown) => setError(errorText(e, t)),
    );
  }, [project.id, agent.id, t]);
  useEffect(load, [load]);
  const revoke = async (id: string) => {
    setRevoking(null);
    try {
      await oauthApi.revoke(project.id, id);
      load();
    } catch (e) {
      setError(errorText(e, t));
    }
  };
  if (!canManage) return null;
  const nameOf = (g: OAuthGrant) => g.client.name || g.client.id;
  return (
    <section className="card agent-grants" aria-labelledby="agent-grants-title">
      <h3 id="agent-grants-title">{t('agents.grants')}</h3>
      {error && grants !== null && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      {grants === null ? (
        <LoadState error={error} onRetry={load} lines={1} />
      ) : grants.length === 0 ? (
        <p className="empty">{t('agents.noGrants')}</p>
      ) : (
        <ul className="agent-token-list">
          {grants.map((g) => (
            <li key={g.id} data-grant-id={g.id}>
              <strong>{nameOf(g)}</strong> <span className="muted">{t('agents.grantBy', { user: g.user ?? '?' })}</span>{' '}
              <span className="muted">{formatDate(g.lastUsedAt ?? g.createdAt, lang)}</span>{' '}
              {g.revokedAt ? (
                <span className="muted">{t('agents.revoked')}</span>
              ) : (
                <button className="link danger" onClick={() => setRevoking(g)}>
                  {t('agents.revoke')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {revoking && (
        <ConfirmDialog
          message={t('agents.revokeGrantConfirm', { name: nameOf(revoking) })}
          confirmLabel={t('agents.revoke')}
          onConfirm={() => void revoke(revoking.id)}
          onCancel={() => setRevoking(null)}
        />
      )}
    </section>
  );
}
