import { oauthRoutes } from '@stoa/contract';
import { describeOAuthClient } from '../oauth/oauth-clients.js';
import { approveOAuthGrant, listOAuthGrants, revokeOAuthGrant } from '../oauth/oauth-grants.js';
import { changes, globalOperation, projectOperation, reads } from './operation.js';
import type { Operation } from './operation.js';

const r = oauthRoutes;

/**
 * The people's side of MCP authorization: the consent page's client, the consent, and the grants. Who may consent
 * for which agent is the rule of minting its tokens; who may revoke a grant, the rule of revoking them (the core).
 */
export const oauthOperations: Operation[] = [
  globalOperation(r.client, { policy: 'signed-in', mutates: false, audit: null, agent: 'none' }, ({ platform, principal }, i) =>
    describeOAuthClient(platform, principal, i.client, i.redirectUri),
  ),
  projectOperation(r.approve, changes('token.create', null, 'none'), (ctx, i) =>
    approveOAuthGrant(ctx, {
      agent: i.agent,
      clientId: i.clientId,
      redirectUri: i.redirectUri,
      codeChallenge: i.codeChallenge,
      resource: i.resource,
      scope: i.scope,
      state: i.state,
    }),
  ),
  projectOperation(r.listGrants, reads('project.read'), (ctx) => listOAuthGrants(ctx)),
  projectOperation(r.revokeGrant, changes('token.create', null, 'none'), async (ctx, i) => {
    await revokeOAuthGrant(ctx, { id: i.id });
    return { ok: true as const };
  }),
];
