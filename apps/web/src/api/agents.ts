import type { agentRoutes, conversationRoutes, RouteOutput } from '@stoa/contract';
import { api, seg } from './client.js';

export type Agent = RouteOutput<typeof agentRoutes.show>;
export type Conversation = RouteOutput<typeof conversationRoutes.list>[number];
export interface AgentSettings {
  name?: string;
  instructions?: string;
  files?: 'on' | 'off';
  write?: 'own' | 'project';
  read?: 'project' | 'own';
}

const p = (project: string) => `/projects/${seg(project)}`;

/**
 * Agents and conversations, as the routes of packages/contract/src/routes/agents.ts define them.
 *
 * @example
 * const a = await agentsApi.create('default', { name: 'Researcher', files: 'on' });
 */
export const agentsApi = {
  list: (project: string) => api<Agent[]>('GET', `${p(project)}/agents`),
  create: (project: string, s: AgentSettings & { name: string }) => api<Agent>('POST', `${p(project)}/agents`, { body: s }),
  update: (project: string, id: string, s: AgentSettings) => api<Agent>('PATCH', `${p(project)}/agents/${seg(id)}`, { body: s }),
  conversations: (project: string) => api<Conversation[]>('GET', `${p(project)}/conversations`),
};
