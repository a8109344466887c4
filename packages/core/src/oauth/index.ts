export { saveOAuthClient, findOAuthClient, redirectUriMatches, type OAuthClientRecord } from './oauth-clients.js';
export {
  OAUTH_LIFETIMES,
  oauthCodeChallenge,
  exchangeOAuthCode,
  refreshOAuthToken,
  revokeOAuthCredential,
  type OAuthErrorCode,
  type OAuthTokenSet,
} from './oauth-grants.js';
