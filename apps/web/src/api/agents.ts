import type { agentRoutes, conversationRoutes, projectRoutes, RouteOutput } from '@stoa/contract';
import { routeIndex } from '@stoa/contract/route-index';
import { call } from './client.js';

export type Agent = RouteOutput<typeof agentRoutes.show>;
export type Conversation = RouteOutput<typeof conversationRoutes.list>[number];
export type TokenInfo = RouteOutput<typeof projectRoutes.listTokens>[number];
export type TraceEntry = RouteOutput<typeof conversationRoutes.trace>['entries'][number];
export type ConversationChange = RouteOutput<typeof conversationRoutes.changes>['items'][number];
export type RevertResult = RouteOutput<typeof conversationRoutes.revert>['results'][number];
export interface AgentSettings {
  name?: string;
  instructions?: string;
  files?: 'on' | 'off';
  write?: 'own' | 'project';
  read?: 'project' | 'own';
}

const r = routeIndex.agents;

/**
 * Agents and conversations, as the routes of packages/contract/src/routes/agents.ts define them.
 *
 * @example
 * const a = await agentsApi.create('default', { name: 'Researcher', files: 'on' });
 */
export const agentsApi = {
  list: (project: string) => call(r.list, { project }),
  create: (project: string, s: AgentSettings & { name: string }) => call(r.create, { project, ...s }),
  update: (project: string, id: string, s: AgentSettings) => call(r.update, { project, id, ...s }),
  publish: (project: string, id: string) => call(r.publish, { project, id }),
  remove: (project: string, id: string) => call(r.remove, { project, id }),
  conversations: (project: string, agent?: string) => call(routeIndex.conversations.list, { project, agent }),
  /** A dialog: one conversation between the signed-in person and one agent (per-dialog limits count in it). */
  startDialog: (project: string, agent: string) => call(routeIndex.conversations.create, { project, members: [agent], kind: 'dialog' }),
  trace: (project: string, id: string, after?: string) => call(routeIndex.conversations.trace, { project, id, after, limit: 100 }),
  changes: (project: string, id: string) => call(routeIndex.conversations.changes, { project, id }),
  revert: (project: string, id: string, items?: string[]) => call(routeIndex.conversations.revert, { project, id, items }),
  tokens: (project: string, agent: string) => call(routeIndex.projects.listTokens, { project, agent }),
  createToken: (project: string, agent: string, published: boolean) => call(routeIndex.projects.createToken, { project, agent, published }),
  revokeToken: (project: string, id: string) => call(routeIndex.projects.revokeToken, { project, id }),
};
