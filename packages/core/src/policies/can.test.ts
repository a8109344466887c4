import { describe, expect, it } from 'vitest';
import type { Actor, AgentAccess, Role } from '../actors.js';
import { can, type Action } from './can.js';
import { effectiveScopes } from './agent-scopes.js';

/**
 * The policy as a data table (docs/architecture.md "One policy module", like supabase/storage rls_tests.yaml):
 * actor × operation × target → allowed, or the refusal code.
 */
const ME = 'agt_me000001';
const OTHER = 'agt_other002';

function user(role: Role | null, superuser = false): Actor {
  return { kind: 'user', userId: 'usr_1', name: 'u', role, superuser };
}

function agent(access: Partial<AgentAccess>): Actor {
  return {
    kind: 'agent',
    agentId: ME,
    name: 'helper',
    ownerId: 'usr_1',
    instructions: '',
    conversationId: null,
    access: { enabled: true, write: 'own', read: 'project', ...access },
  };
}

function decide(actor: Actor, action: Action, path = 'reports/q1.md'): 'allow' | string {
  const e = can(actor, action, action.startsWith('file.') ? { kind: 'file', path } : { kind: 'project' });
  return e ? e.code : 'allow';
}

// Users: F14 (anyone with read access views; only editors and admins change) and F15 (audit is for admins).
const userTable: Array<[who: string, actor: Actor, read: string, write: string, del: string, move: string, audit: string]> = [
  ['admin', user('admin'), 'allow', 'allow', 'allow', 'allow', 'allow'],
  ['editor', user('editor'), 'allow', 'allow', 'allow', 'allow', 'forbidden'],
  ['viewer', user('viewer'), 'allow', 'forbidden', 'forbidden', 'forbidden', 'forbidden'],
  ['non-member', user(null), 'forbidden', 'forbidden', 'forbidden', 'forbidden', 'forbidden'],
  ['installation admin (not a member)', user(null, true), 'allow', 'allow', 'allow', 'allow', 'allow'],
];

describe('can(): users', () => {
  it.each(userTable)('%s', (_who, actor, read, write, del, move, audit) => {
    expect({
      read: decide(actor, 'file.read'),
      write: decide(actor, 'file.write'),
      delete: decide(actor, 'file.delete'),
      move: decide(actor, 'file.move'),
      audit: decide(actor, 'audit.read'),
    }).toEqual({ read, write, delete: del, move, audit });
  });

  it('tells a viewer why', () => {
    expect(can(user('viewer'), 'file.write', { kind: 'file', path: 'a.md' })?.message).toBe('viewers may not change files; an editor or admin can');
  });
});

// A2, row for row, for each target: the agent's own folder, another agent's folder, a user's file, the root.
const targets = {
  own: `agents/${ME}/notes/summary.md`,
  otherAgent: `agents/${OTHER}/report.md`,
  usersFile: 'pricing/price-list.md',
  rootFile: 'README.md',
} as const;
type Target = keyof typeof targets;
type Cell = Record<Target, 'allow' | 'forbidden'>;
const all = (v: 'allow' | 'forbidden'): Cell => ({ own: v, otherAgent: v, usersFile: v, rootFile: v });
const ownOnly: Cell = { own: 'allow', otherAgent: 'forbidden', usersFile: 'forbidden', rootFile: 'forbidden' };

const a2: Array<[writes: 'own' | 'project', reads: 'project' | 'own', read: Cell, write: Cell, del: Cell]> = [
  // writes        reads       read           write         delete
  ['own', 'project', all('allow'), ownOnly, ownOnly],
  ['own', 'own', ownOnly, ownOnly, ownOnly],
  ['project', 'project', all('allow'), all('allow'), all('forbidden')],
  ['project', 'own', ownOnly, ownOnly, ownOnly],
];

describe('can(): agents, A2 row for row', () => {
  it.each(a2)('writes %s, reads %s', (write, read, readCell, writeCell, deleteCell) => {
    const actor = agent({ write, read });
    const row = (action: Action) => Object.fromEntries(Object.entries(targets).map(([k, p]) => [k, decide(actor, action, p)]));
    expect({ read: row('file.read'), write: row('file.write'), delete: row('file.delete') }).toEqual({ read: readCell, write: writeCell, delete: deleteCell });
  });

  it.each(a2)('writes %s, reads %s: the storage root as a folder is readable only with whole-project reading', (write, read) => {
    expect(decide(agent({ write, read }), 'file.read', '')).toBe(read === 'project' ? 'allow' : 'forbidden');
  });

  it('never writes where it cannot read (every row, every target)', () => {
    for (const [write, read] of a2) {
      const actor = agent({ write, read });
      for (const p of Object.values(targets)) {
        if (decide(actor, 'file.write', p) === 'allow') expect(decide(actor, 'file.read', p)).toBe('allow');
      }
    }
  });

  it('a folder named like the own folder with a suffix is not the own folder', () => {
    expect(decide(agent({}), 'file.write', `agents/${ME}x/a.md`)).toBe('forbidden');
    expect(decide(agent({}), 'file.write', `agents/${ME}`)).toBe('allow');
  });

  it('moves only inside the own folder, and not at all where delete is not available', () => {
    expect(decide(agent({}), 'file.move', targets.own)).toBe('allow');
    expect(decide(agent({}), 'file.move', targets.usersFile)).toBe('forbidden');
    expect(decide(agent({ write: 'project', read: 'project' }), 'file.move', targets.usersFile)).toBe('forbidden');
  });

  it.each(['file.read', 'file.write', 'file.delete', 'file.move'] as Action[])('file access turned off → forbidden for %s', (action) => {
    const off = agent({ enabled: false, write: 'project', read: 'project' });
    for (const p of Object.values(targets)) expect(decide(off, action, p)).toBe('forbidden');
    expect(can(off, action, { kind: 'file', path: targets.own })?.message).toBe('file access is turned off for this agent');
  });

  it('agents never read the audit log', () => {
    expect(decide(agent({ write: 'project', read: 'project' }), 'audit.read')).toBe('forbidden');
  });

  it('refusals name the scope, never a host path', () => {
    const e = can(agent({}), 'file.write', { kind: 'file', path: targets.usersFile })!;
    expect(e.message).toBe(`"${targets.usersFile}" is outside where you may write (your folder agents/${ME}/)`);
    expect(can(agent({ write: 'project', read: 'project' }), 'file.delete', { kind: 'file', path: targets.own })!.message).toMatch(/not available/);
  });

  it('effectiveScopes matches the table', () => {
    expect(effectiveScopes(ME, { enabled: true, write: 'own', read: 'project' })).toEqual({ read: '', write: `agents/${ME}`, delete: `agents/${ME}` });
    expect(effectiveScopes(ME, { enabled: true, write: 'project', read: 'project' })).toEqual({ read: '', write: '', delete: null });
    expect(effectiveScopes(ME, { enabled: true, write: 'project', read: 'own' })).toEqual({
      read: `agents/${ME}`,
      write: `agents/${ME}`,
      delete: `agents/${ME}`,
    });
  });
});
