import { routeIndex } from '@stoa/contract/route-index';
import { call, setToken } from './client.js';

const r = routeIndex.signIn;

/**
 * Signing in as a person and keeping one's own ways in (issue 31), as packages/contract/src/routes/sign-in.ts
 * defines them. A successful sign-in keeps the session token of this browser.
 *
 * @example
 * await signInApi.password('iris', 'iris likes long passwords');
 */
export const signInApi = {
  password: async (user: string, password: string) => {
    const session = await call(r.password, { user, password });
    setToken(session.token);
    return session;
  },
  /** Accepts an invitation as a new person with a password; the answer's token is this browser's session. */
  join: async (code: string, user: string | undefined, password: string) => {
    const joined = await call(routeIndex.projects.acceptInvitation, { code, user, password });
    if (joined.token) setToken(joined.token);
    return joined;
  },
  /** An invitation into a project (admins): its one-time code, shown once. */
  invite: (project: string, role: 'admin' | 'editor' | 'viewer', user?: string) => call(routeIndex.projects.createInvitation, { project, role, user }),
  account: () => call(r.account, {}),
  changePassword: (password: string, current?: string) => call(r.changePassword, { password, current }),
};
