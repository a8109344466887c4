import { describe, expect, it } from 'vitest';
import type { Actor } from '../actors.js';
import { can } from './can.js';
import type { MemoryResource } from './memory.js';

const access = { enabled: false, write: 'own' as const, read: 'project' as const };
const actors: Record<string, Actor> = {
  superuser: { kind: 'user', userId: 'usr_root', name: 'admin', role: 'admin', superuser: true },
  admin: { kind: 'user', userId: 'usr_adm', name: 'ada', role: 'admin' },
  owner: { kind: 'user', userId: 'usr_own', name: 'olga', role: 'editor' },
  editor: { kind: 'user', userId: 'usr_ed', name: 'eve', role: 'editor' },
  viewer: { kind: 'user', userId: 'usr_v', name: 'vic', role: 'viewer' },
  viewerOwner: { kind: 'user', userId: 'usr_vo', name: 'vo', role: 'viewer' },
  outsider: { kind: 'user', userId: 'usr_x', name: 'xavier', role: null },
  agent: { kind: 'agent', agentId: 'agt_self0001', name: 'Self', ownerId: 'usr_own', access, instructions: '', conversationId: 'conv_a' },
  otherAgent: { kind: 'agent', agentId: 'agt_other001', name: 'Other', ownerId: 'usr_own', access, instructions: '', conversationId: 'conv_a' },
};

const soul = (ownerId = 'usr_own'): MemoryResource => ({ kind: 'memory', file: 'SOUL.md', agentId: 'agt_self0001', agentOwnerId: ownerId });
const agentsMd: MemoryResource = { kind: 'memory', file: 'AGENTS.md' };
const memory = (participant: boolean): MemoryResource => ({ kind: 'memory', file: 'MEMORY.md', conversationId: 'conv_a', participant });

// actor × file × (participant) × action → allowed, or the refusal (M1; see policies/memory.ts).
const table: Array<[string, MemoryResource, 'memory.read' | 'memory.write', true | RegExp]> = [
  ['superuser', soul(), 'memory.write', true],
  ['admin', soul(), 'memory.write', true],
  ['owner', soul(), 'memory.write', true],
  ['owner', soul(), 'memory.read', true],
  ['editor', soul(), 'memory.read', true],
  ['editor', soul(), 'memory.write', /owner, an admin or the agent itself/],
  ['viewer', soul(), 'memory.read', true],
  ['viewer', soul(), 'memory.write', /viewers may read/],
  ['viewerOwner', soul('usr_vo'), 'memory.write', /viewers may read/],
  ['outsider', soul(), 'memory.read', /not a member/],
  ['agent', soul(), 'memory.read', true],
  ['agent', soul(), 'memory.write', true],
  ['otherAgent', soul(), 'memory.read', /only your own SOUL.md/],
  ['otherAgent', soul(), 'memory.write', /edit only your own SOUL.md/],
  ['admin', agentsMd, 'memory.write', true],
  ['superuser', agentsMd, 'memory.write', true],
  ['editor', agentsMd, 'memory.read', true],
  ['editor', agentsMd, 'memory.write', /only workspace admins/],
  ['viewer', agentsMd, 'memory.read', true],
  ['viewer', agentsMd, 'memory.write', /only workspace admins/],
  ['agent', agentsMd, 'memory.read', true],
  ['agent', agentsMd, 'memory.write', /agents only read it/],
  ['outsider', agentsMd, 'memory.read', /not a member/],
  ['editor', memory(true), 'memory.read', true],
  ['editor', memory(true), 'memory.write', true],
  ['editor', memory(false), 'memory.read', /not a participant/],
  ['editor', memory(false), 'memory.write', /not a participant/],
  ['viewer', memory(true), 'memory.read', true],
  ['viewer', memory(true), 'memory.write', /viewers may read/],
  ['viewer', memory(false), 'memory.read', /not a participant/],
  ['agent', memory(true), 'memory.write', true],
  ['agent', memory(false), 'memory.read', /not a participant/],
  ['admin', memory(false), 'memory.read', true],
  ['admin', memory(false), 'memory.write', true],
  ['superuser', memory(false), 'memory.write', true],
  ['outsider', memory(true), 'memory.read', /not a member/],
];

describe('memory policy (M1)', () => {
  it.each(table)('%s %s %s', (who, resource, action, expected) => {
    const e = can(actors[who]!, action, resource);
    if (expected === true) expect(e).toBeNull();
    else {
      expect(e?.code).toBe('forbidden');
      expect(e?.message).toMatch(expected);
    }
  });

  it('memory resources answer only memory actions', () => {
    expect(can(actors.admin!, 'file.read', agentsMd)?.code).toBe('forbidden');
  });
});
