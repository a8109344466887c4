/**
 * The access model of docs/security.md as data: every actor × resource × operation with its expected answer.
 * `ok` means allowed; otherwise the stable error code the refusal must carry. e2e/access-matrix.test.ts runs
 * each cell through every door that can express it and checks the side channels for leaks.
 */

export const ACTORS = [
  'installAdmin',
  'projectAdmin',
  'editor',
  'viewer',
  'agentOff',
  'agentOwnRead',
  'agentOwnOwn',
  'agentProject',
  'agentProjectOwn',
  'otherProject',
  'revoked',
  'anonymous',
] as const;
export type ActorName = (typeof ACTORS)[number];

export const AGENTS: ActorName[] = ['agentOff', 'agentOwnRead', 'agentOwnOwn', 'agentProject', 'agentProjectOwn'];

/** Each agent's A1 settings; its row of the A2 table follows from them. */
export const AGENT_SETTINGS: Record<string, { files: 'on' | 'off'; write: 'own' | 'project'; read: 'project' | 'own' }> = {
  agentOff: { files: 'off', write: 'own', read: 'project' },
  agentOwnRead: { files: 'on', write: 'own', read: 'project' },
  agentOwnOwn: { files: 'on', write: 'own', read: 'own' },
  agentProject: { files: 'on', write: 'project', read: 'project' },
  agentProjectOwn: { files: 'on', write: 'project', read: 'own' },
};

export type Expect = 'ok' | 'forbidden' | 'not_found' | 'unauthorized';

/** Resources of the project "default" (and one of the project "other"). */
export const RESOURCES = [
  'rootFile',
  'ownFolder',
  'otherAgentFolder',
  'workspacePage',
  'channelPage',
  'soul',
  'agentsMd',
  'memoryMd',
  'otherProjectFile',
  'tokens',
  'members',
  'audit',
] as const;
export type ResourceName = (typeof RESOURCES)[number];

/** The words planted in each resource; a reply that may not reveal the resource must contain none of them. */
export const SECRETS: Partial<Record<ResourceName, string>> = {
  rootFile: 'zebracorn root plan',
  otherAgentFolder: 'zebracorn other agent note',
  channelPage: 'zebracorn channel page',
  soul: 'zebracorn soul of the channel agent',
  memoryMd: 'zebracorn channel memory',
  otherProjectFile: 'zebracorn other project',
};

type Row = Partial<Record<ActorName, Expect>>;
const all = (e: Expect): Row => Object.fromEntries(ACTORS.map((a) => [a, e])) as Row;
/** Outside the project: another project's member learns nothing; bad and missing tokens are unauthorized. */
const outside: Row = { otherProject: 'not_found', revoked: 'unauthorized', anonymous: 'unauthorized' };
const row = (r: Row): Row => ({ ...outside, ...r });
const people = (admin: Expect, editor: Expect, viewer: Expect): Row => ({ installAdmin: admin, projectAdmin: admin, editor, viewer });
const agents = (off: Expect, ownRead: Expect, ownOwn: Expect, project: Expect, projectOwn: Expect): Row => ({
  agentOff: off,
  agentOwnRead: ownRead,
  agentOwnOwn: ownOwn,
  agentProject: project,
  agentProjectOwn: projectOwn,
});
const F: Expect = 'forbidden';
const N: Expect = 'not_found';

/**
 * The matrix. Rows: resource.operation; columns: actors. `ownFolder` is each agent's own folder (people act
 * on one agent's folder: that of agentOwnRead). The channel belongs to the editor and agentOwnRead.
 */
export const MATRIX: Record<string, Row> = {
  // A2: reads follow "what the agent reads", writes "where it writes"; "whole project" writers cannot delete.
  'rootFile.read': row({ ...people('ok', 'ok', 'ok'), ...agents(F, 'ok', F, 'ok', F) }),
  'rootFile.write': row({ ...people('ok', 'ok', F), ...agents(F, F, F, 'ok', F) }),
  'rootFile.delete': row({ ...people('ok', 'ok', F), ...agents(F, F, F, F, F) }),
  'ownFolder.read': row({ ...people('ok', 'ok', 'ok'), ...agents(F, 'ok', 'ok', 'ok', 'ok') }),
  'ownFolder.write': row({ ...people('ok', 'ok', F), ...agents(F, 'ok', 'ok', 'ok', 'ok') }),
  'ownFolder.delete': row({ ...people('ok', 'ok', F), ...agents(F, 'ok', 'ok', F, 'ok') }),
  'otherAgentFolder.read': row({ ...people('ok', 'ok', 'ok'), ...agents(F, 'ok', F, 'ok', F) }),
  'otherAgentFolder.write': row({ ...people('ok', 'ok', F), ...agents(F, F, F, 'ok', F) }),
  // W5, W7: the workspace wiki is shared by every member and every agent; viewers read only.
  'workspacePage.read': row({ ...people('ok', 'ok', 'ok'), ...agents('ok', 'ok', 'ok', 'ok', 'ok') }),
  'workspacePage.write': row({ ...people('ok', 'ok', F), ...agents('ok', 'ok', 'ok', 'ok', 'ok') }),
  // A channel's pages: its participants and project admins; to everyone else the page does not exist.
  'channelPage.read': row({ ...people('ok', 'ok', N), ...agents(N, 'ok', N, N, N) }),
  // M1: SOUL.md is read by members and by the agent itself, edited by its owner (the editor), admins and itself.
  'soul.read': row({ ...people('ok', 'ok', 'ok'), ...agents(F, 'ok', F, F, F) }),
  'soul.write': row({ ...people('ok', 'ok', F), ...agents(F, 'ok', F, F, F) }),
  'agentsMd.read': row({ ...people('ok', 'ok', 'ok'), ...agents('ok', 'ok', 'ok', 'ok', 'ok') }),
  'agentsMd.write': row({ ...people('ok', F, F), ...agents(F, F, F, F, F) }),
  // A channel's MEMORY.md: its participants and admins; to everyone else the channel does not exist (issue 27).
  'memoryMd.read': row({ ...people('ok', 'ok', N), ...agents(N, 'ok', N, N, N) }),
  'memoryMd.write': row({ ...people('ok', 'ok', N), ...agents(N, 'ok', N, N, N) }),
  // Another project: only its member and the installation admin; agents belong to their own project.
  'otherProjectFile.read': { ...all(N), installAdmin: 'ok', otherProject: 'ok', ...agents(F, F, F, F, F), revoked: 'unauthorized', anonymous: 'unauthorized' },
  // Tokens: people list and mint their own; agents manage none.
  'tokens.list': row({ ...people('ok', 'ok', 'ok'), ...agents(F, F, F, F, F) }),
  'tokens.write': row({ ...people('ok', 'ok', 'ok'), ...agents(F, F, F, F, F) }),
  /** Minting a token for another member (carol): the installation admin only; the others invite people. */
  'tokens.mintForOther': row({ ...people('ok', F, F), projectAdmin: F, ...agents(F, F, F, F, F) }),
  /** Revoking a token that belongs to another project. */
  'tokens.revokeOtherProject': row({ installAdmin: 'ok', projectAdmin: N, editor: N, viewer: N, ...agents(F, F, F, F, F) }),
  'members.list': row({ ...people('ok', 'ok', 'ok'), ...agents(F, F, F, F, F) }),
  'members.write': row({ ...people('ok', F, F), ...agents(F, F, F, F, F) }),
  'audit.read': row({ ...people('ok', F, F), ...agents(F, F, F, F, F) }),
};

/** Which secrets each actor may see anywhere (search, listings, backlinks); every other secret is a leak. */
export function mayKnow(actor: ActorName, resource: ResourceName): boolean {
  const cell = MATRIX[`${resource}.read`]?.[actor];
  return cell === 'ok';
}
