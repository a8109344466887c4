import type { RouteDef } from '../route.js';
import { filesRoutes } from './files.js';
import { projectRoutes } from './projects.js';
import { agentRoutes, conversationRoutes, toolRoutes } from './agents.js';
import { memoryRoutes, turnRoutes } from './memory.js';

/**
 * Every route of the HTTP API. Each area adds its route table here (one line), and the OpenAPI document,
 * the server's validation and the SDK follow.
 */
export const allRoutes: RouteDef[] = [...Object.values(projectRoutes), ...Object.values(filesRoutes), ...Object.values(agentRoutes), ...Object.values(conversationRoutes), ...Object.values(toolRoutes), ...Object.values(memoryRoutes), ...Object.values(turnRoutes)];
