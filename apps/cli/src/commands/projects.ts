import type { Command } from 'commander';
import { formatBytes } from '@stoa/contract/format';
import { routeIndex } from '@stoa/contract/route-index';
import { action, globalsOf, openApi } from '../context.js';
import type { Api } from '../api.js';
import { print, reportError, table, UsageError } from '../output.js';
import { volumeRequest } from '../volume-spec.js';

const VOLUME_KINDS = ['users', 'knowledges', 'skills', 'xperts', 'user-xperts'] as const;

export function registerProjects(program: Command): void {
  const projects = program.command('projects').description('Projects (workspaces)');
  projects
    .command('create <name>')
    .description('Create a project; you become its admin')
    .action(
      action(async (api, g, name: string) => {
        const p = await api.call(routeIndex.projects.createProject, { name });
        print(!!g.json, p, () => `Created project ${p.name} (${p.id})`);
      }),
    );
  projects
    .command('list')
    .description('Projects you belong to')
    .action(
      action(async (api, g) => {
        const ps = await api.call(routeIndex.projects.listProjects, {});
        print(!!g.json, ps, () => table([['NAME', 'ID', 'ROLE'], ...ps.map((p) => [p.name, p.id, p.role ?? ''])]));
      }),
    );

  projects
    .command('delete <name>')
    .description('Delete a whole project: files, versions, wiki, memory, agents, tokens (installation administrator)')
    .option('--confirm <name>', "the project's name again; nothing is deleted without it")
    .action(
      action(async (api, g, name: string, opts: { confirm?: string }) => {
        if (!opts.confirm) throw new UsageError(`deleting a project cannot be undone: repeat its name with --confirm "${name}"`);
        const r = await api.call(routeIndex.projects.deleteProject, { project: name, confirm: opts.confirm });
        print(!!g.json, r, () => `Deleted project ${r.name} (${r.id})`);
      }),
    );

  const volume = program
    .command('volume')
    .description('The scope of --volume (or of --project) as the server resolves it for you; creates the volume on first use');
  volume
    .command('list')
    .description("The volumes you reach from --project: its knowledge bases and skill packages, the agents' volumes you may read, your own files")
    .option('--catalog <catalog>', 'only this kind: users | knowledges | skills | xperts | user-xperts')
    .action(
      action(async (api, g, opts: { catalog?: string }) => {
        const catalog = opts.catalog as (typeof VOLUME_KINDS)[number] | undefined;
        if (catalog !== undefined && !VOLUME_KINDS.includes(catalog)) throw new UsageError(`--catalog must be one of ${VOLUME_KINDS.join(', ')}`);
        const vs = await api.call(routeIndex.projects.listVolumes, { project: api.project, catalog });
        print(!!g.json, vs, () =>
          table([
            ['CATALOG', 'NAME', 'ACCESS', 'USED', 'ID'],
            ...vs.map((v) => [v.catalog, v.agentDeleted ? `${v.name} (agent deleted)` : v.name, v.access, formatBytes(v.usedBytes), v.volumeId]),
          ]),
        );
      }),
    );
  volume
    .command('delete <volumeId>')
    .description("Delete a knowledge base or skill package (its project's admins), or a deleted agent's volume, with everything in it")
    .action(
      action(async (api, g, id: string) => {
        const r = await api.call(routeIndex.projects.deleteVolume, { volume: id });
        print(!!g.json, r, () => `Deleted volume ${r.volumeId}`);
      }),
    );
  volume.action(
    action(async (api, g) => {
      const v = g.volume ?? 'projects';
      const s = await api.call(routeIndex.projects.openVolume, v === 'projects' ? { catalog: 'projects', project: api.project } : volumeRequest(v, g.project));
      print(!!g.json, s, () =>
        table([
          ['FIELD', 'VALUE'],
          ...Object.entries({ ...s, actor: `${s.actor.kind} ${s.actor.id}` }).map(([k, val]) => [k, val === null ? '' : String(val)]),
        ]),
      );
    }),
  );

  const members = program.command('members').description('Members of the project and their roles');
  members
    .command('add <user>')
    .description('Add a member (creates the user if needed) or change the role')
    .requiredOption('--role <role>', 'admin | editor | viewer')
    .action(
      action(async (api, g, user: string, opts: { role: string }) => {
        const m = await api.call(routeIndex.projects.addMember, { project: api.project, user, role: opts.role as 'admin' });
        print(!!g.json, m, () => `${m.name} is ${m.role} of ${api.project}`);
      }),
    );
  members
    .command('list')
    .description('List members')
    .action(
      action(async (api, g) => {
        const ms = await api.call(routeIndex.projects.listMembers, { project: api.project });
        print(!!g.json, ms, () => table([['NAME', 'ROLE', 'ID'], ...ms.map((m) => [m.name, m.role, m.userId])]));
      }),
    );
  members
    .command('rm <user>')
    .description('Remove a member')
    .action(
      action(async (api, g, user: string) => {
        await api.call(routeIndex.projects.removeMember, { project: api.project, user });
        print(!!g.json, { ok: true }, () => `Removed ${user}`);
      }),
    );

  const tokens = program.command('tokens').description('API tokens');
  tokens
    .command('create')
    .description(
      "Create a token that works only in this project, shown once: your own (no option), an agent's (--agent; its owner or a " +
        "project admin), or another member's (--user; the installation admin only — others invite people: stoa invitations create)",
    )
    .option('--user <name>', 'member the token acts as')
    .option('--agent <agentId>', 'agent the token acts as')
    .option('--name <label>', 'a label for the token')
    .option('--published', "agent tokens: act with the settings frozen at the agent's publication (A7)")
    .option('--installation', 'an installation administrator token, not confined to a project (runs doctor; installation admin only)')
    .action(async (opts: { user?: string; agent?: string; name?: string; published?: boolean; installation?: boolean }, cmd: Command) => {
      // `--agent` here names the token's agent; commander hands it to the program's global --agent (act as an
      // agent), so take it from there and open the Api as the caller, not as that agent.
      const g = globalsOf(cmd);
      const agent = opts.agent ?? g.agent;
      let api: Api | undefined;
      try {
        api = await openApi({ ...g, agent: undefined });
        if (opts.installation) {
          if (opts.user || agent || opts.published) throw new UsageError('--installation takes no --user, --agent or --published');
          const t = await api.call(routeIndex.admin.createToken, { name: opts.name });
          return print(!!g.json, { token: t.token, id: t.id, installation: true }, () => t.token);
        }
        const t = await api.call(routeIndex.projects.createToken, { project: api.project, user: opts.user, agent, name: opts.name, published: opts.published });
        print(
          !!g.json,
          {
            token: t.token,
            id: t.id,
            ...(t.user ? { user: t.user } : {}),
            ...(t.agent ? { agent: t.agent } : {}),
            ...(t.published ? { published: true } : {}),
          },
          () => t.token,
        );
      } catch (e) {
        process.exitCode = reportError(e);
      } finally {
        await api?.close().catch(() => undefined);
      }
    });
  tokens
    .command('list')
    .description("Tokens you may revoke: your own, your agents', and (project admins) those confined to this project")
    .action(
      action(async (api, g) => {
        const ts = await api.call(routeIndex.projects.listTokens, { project: api.project });
        print(!!g.json, ts, () =>
          table([
            ['ID', 'NAME', 'FOR', 'PROJECT', 'CREATED', 'REVOKED'],
            ...ts.map((t) => [t.id, t.name ?? '', t.agent ? `agent ${t.agent}` : (t.user ?? ''), t.project ?? '(all)', t.createdAt, t.revokedAt ?? '']),
          ]),
        );
      }),
    );
  tokens
    .command('revoke <id>')
    .description('Revoke a token by its ID (your own; project admins: tokens of this project)')
    .action(
      action(async (api, g, id: string) => {
        await api.call(routeIndex.projects.revokeToken, { project: api.project, id });
        print(!!g.json, { ok: true }, () => `Revoked ${id}`);
      }),
    );

  const grants = program.command('grants').description('Applications you allowed to act as an agent at /mcp (OAuth grants), and revoking them');
  grants
    .command('list')
    .description("OAuth grants you may revoke: your own, your agents', and (project admins) every grant of this project")
    .action(
      action(async (api, g) => {
        const gs = await api.call(routeIndex.oauth.listGrants, { project: api.project });
        print(!!g.json, gs, () =>
          table([
            ['ID', 'APPLICATION', 'AGENT', 'ALLOWED BY', 'CREATED', 'LAST USED', 'REVOKED'],
            ...gs.map((x) => [x.id, x.client.name ?? x.client.id, x.agent, x.user ?? '', x.createdAt, x.lastUsedAt ?? '', x.revokedAt ?? '']),
          ]),
        );
      }),
    );
  grants
    .command('revoke <id>')
    .description('Revoke an OAuth grant: its access and refresh tokens stop working at once')
    .action(
      action(async (api, g, id: string) => {
        await api.call(routeIndex.oauth.revokeGrant, { project: api.project, id });
        print(!!g.json, { ok: true }, () => `Revoked ${id}`);
      }),
    );

  const invitations = program.command('invitations').description('Invite people: a one-time code they redeem for their own membership and token');
  invitations
    .command('create')
    .description('Invite a person into the project (project admins); prints the code once')
    .requiredOption('--role <role>', 'admin | editor | viewer')
    .option('--user <name>', 'address the invitation to this user name')
    .option('--ttl-hours <n>', 'hours the code stays valid', '168')
    .action(
      action(async (api, g, opts: { role: string; user?: string; ttlHours: string }) => {
        const inv = await api.call(routeIndex.projects.createInvitation, {
          project: api.project,
          role: opts.role as 'viewer',
          user: opts.user,
          ttlHours: Number(opts.ttlHours),
        });
        print(
          !!g.json,
          inv,
          () => `${inv.code}\nRedeem once before ${inv.expiresAt}: stoa --url URL invitations accept ${inv.code}${inv.user ? '' : ' --user NAME'}`,
        );
      }),
    );
  invitations
    .command('accept <code>')
    .description('Redeem an invitation on its server (--url): with --token you join; without, you become a new user and get your token')
    .option('--user <name>', 'your user name (new users, when the invitation names none)')
    .action(
      action(async (api, g, code: string, opts: { user?: string }) => {
        if (api.mode === 'local') throw new UsageError('an invitation is redeemed on the server that issued it: stoa --url URL invitations accept CODE');
        const r = await api.call(routeIndex.projects.acceptInvitation, { code, user: opts.user });
        print(!!g.json, r, () => `You are ${r.role} of ${r.project.name} as ${r.user}${r.token ? `\nYour token (shown once): ${r.token}` : ''}`);
      }),
    );

  program
    .command('audit')
    .description("People's uploads, moves and deletes, newest first (admins)")
    .option('--limit <n>', 'entries to show', '50')
    .option('--before <id>', 'older than this entry')
    .option('--installation', "the installation's own log instead (project deletions; installation administrator)")
    .action(
      action(async (api, g, opts: { limit: string; before?: string; installation?: boolean }) => {
        if (opts.installation) {
          const entries = await api.call(routeIndex.admin.audit, { limit: Number(opts.limit) });
          print(!!g.json, entries, () => table([['WHEN', 'WHO', 'ACTION', 'SUBJECT'], ...entries.map((e) => [e.at, e.actor ?? '', e.action, e.subject])]));
          return;
        }
        const r = await api.call(routeIndex.projects.audit, {
          project: api.project,
          limit: Number(opts.limit),
          before: opts.before ? Number(opts.before) : undefined,
        });
        print(!!g.json, r.entries, () =>
          table([
            ['WHEN', 'WHO', 'ACTION', 'PATH'],
            ...r.entries.map((e) => [e.at, e.actor.name ?? '', e.action, e.from && e.to ? `${e.from} → ${e.to}` : (e.path ?? '')]),
          ]),
        );
      }),
    );
}
