import type { RouteDef } from '../route.js';
import { systemRoutes } from './system.js';
import { filesRoutes } from './files.js';
import { projectRoutes } from './projects.js';
import { wikiRoutes } from './wiki.js';
import { searchRoutes } from './search.js';
import { memoryRoutes, turnRoutes } from './memory.js';
import { agentRoutes, conversationRoutes, toolRoutes } from './agents.js';
import { docsRoutes } from './docs.js';
import { adminRoutes } from './admin.js';
import { oauthRoutes } from './oauth.js';
import { lockRoutes } from './locks.js';
import { trashRoutes } from './trash.js';
import { signInRoutes } from './sign-in.js';
import { personalRoutes } from './personal.js';
import { shareRoutes } from './shares.js';
import { thumbnailRoutes } from './thumbnails.js';

/**
 * Every route table by area. Each area adds its table here (one line), and the OpenAPI document, the server's
 * validation, the SDK and the web UI's route index (`npm run gen:routes`) follow.
 */
export const routeTables = {
  system: systemRoutes,
  projects: projectRoutes,
  files: filesRoutes,
  locks: lockRoutes,
  trash: trashRoutes,
  agents: agentRoutes,
  conversations: conversationRoutes,
  tools: toolRoutes,
  memory: memoryRoutes,
  turn: turnRoutes,
  wiki: wikiRoutes,
  search: searchRoutes,
  docs: docsRoutes,
  admin: adminRoutes,
  oauth: oauthRoutes,
  signIn: signInRoutes,
  personal: personalRoutes,
  shares: shareRoutes,
  thumbnails: thumbnailRoutes,
};

/** Every route of the HTTP API but the server's own (health, OpenAPI, login: `systemRoutes`), which it answers directly. */
export const allRoutes: RouteDef[] = Object.entries(routeTables).flatMap(([area, table]) => (area === 'system' ? [] : (Object.values(table) as RouteDef[])));
