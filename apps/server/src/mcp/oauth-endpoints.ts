/** The scope a client may ask for: everything its agent may do at /mcp (the agent's own settings narrow it). */
export const OAUTH_SCOPES = ['mcp'];

/** The OAuth endpoints, below the issuer (the server's public origin). */
export const ENDPOINTS = { authorize: '/oauth/authorize', token: '/oauth/token', register: '/oauth/register', revoke: '/oauth/revoke' } as const;
