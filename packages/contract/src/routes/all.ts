import type { RouteDef } from '../route.js';
import { filesRoutes } from './files.js';
import { projectRoutes } from './projects.js';
import { wikiRoutes } from './wiki.js';
import { searchRoutes } from './search.js';
import { memoryRoutes, turnRoutes } from './memory.js';
import { agentRoutes, conversationRoutes, toolRoutes } from './agents.js';
import { docsRoutes } from './docs.js';
import { adminRoutes } from './admin.js';

/**
 * Every route of the HTTP API. Each area adds its route table here (one line), and the OpenAPI document,
 * the server's validation and the SDK follow.
 */
export const allRoutes: RouteDef[] = [
  ...Object.values(projectRoutes),
  ...Object.values(filesRoutes),
  ...Object.values(agentRoutes),
  ...Object.values(conversationRoutes),
  ...Object.values(toolRoutes),
  ...Object.values(memoryRoutes),
  ...Object.values(turnRoutes),
  ...Object.values(wikiRoutes),
  ...Object.values(searchRoutes),
  ...Object.values(docsRoutes),
  ...Object.values(adminRoutes),
];
