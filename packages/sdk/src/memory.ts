import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { memoryRoutes, StoaError, turnRoutes, type RouteDef, type RouteInput, type RouteOutput } from '@stoa/contract';

/** Anything that calls routes: a `StoaClient`, or the CLI's local in-process Api. */
export interface RouteCaller {
  call<R extends RouteDef>(route: R, input: RouteInput<R>): Promise<RouteOutput<R>>;
}

/** Where memory files go inside a working folder (M5/M6). */
export const MEMORY_FOLDER = join('.stoa', 'memory');

function fileIn(dir: string, rel: string): string {
  const root = resolve(dir, MEMORY_FOLDER);
  const full = resolve(root, rel);
  // Paths come from the server ('SOUL.md', 'conv_…/MEMORY.md'); never let one leave the memory folder.
  if (!full.startsWith(root + sep)) throw new StoaError('path_invalid', `memory path "${rel}" leaves the memory folder`);
  return full;
}

async function writeAtomic(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, content, 'utf8');
  await rename(tmp, path);
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/**
 * `memory pull --dir D`: writes SOUL.md (of the acting agent, or `agent`), AGENTS.md and the conversation's
 * MEMORY.md under `D/.stoa/memory/` (MEMORY.md in `<conversation id>/`). Returns what it wrote.
 *
 * @example
 * await pullMemory(new StoaClient({ url, token }), { project: 'default', conversation: 'conv_x', dir: '.' });
 */
export async function pullMemory(caller: RouteCaller, opts: { project: string; dir: string; agent?: string; conversation?: string }) {
  const files = await caller.call(memoryRoutes.bundle, { project: opts.project, agent: opts.agent, conversation: opts.conversation });
  const written = [];
  for (const f of files) {
    const local = fileIn(opts.dir, f.path);
    await writeAtomic(local, f.content);
    written.push({ file: f.file, path: join(MEMORY_FOLDER, f.path), version: f.version, local });
  }
  return written;
}

/**
 * Before a hosted agent's turn (M6): writes its SOUL.md, the workspace AGENTS.md and the conversation's
 * MEMORY.md into `workdir/.stoa/memory/`, and returns the message to deliver — with every file changed since
 * the agent last saw it prepended (long files named, not inlined).
 *
 * @example
 * const { message } = await prepareTurnInDir(client, { project: 'default', agent: 'agt_a3B9kLm2', conversation: 'conv_x', workdir: '/srv/agent', message: 'Hi' });
 */
export async function prepareTurnInDir(
  caller: RouteCaller,
  opts: { project: string; agent?: string; conversation?: string; workdir: string; message?: string },
) {
  const turn = await caller.call(turnRoutes.prepare, { project: opts.project, agent: opts.agent, conversation: opts.conversation, message: opts.message });
  for (const f of turn.files) await writeAtomic(fileIn(opts.workdir, f.path), f.content);
  return turn;
}

/**
 * After the turn: sends the agent's copies of the files back; each edited one becomes a new version, or —
 * when someone else saved meanwhile — the agent's new lines are appended at the end. `conversation` must be
 * the conversation ID (its MEMORY.md lives in `.stoa/memory/<conversation id>/`).
 *
 * @example
 * const { files } = await commitTurnFromDir(client, { project: 'default', agent: 'agt_a3B9kLm2', conversation: 'conv_x', workdir: '/srv/agent' });
 * files // [{ file: 'MEMORY.md', status: 'merged', version: 7, … }, …]
 */
export async function commitTurnFromDir(caller: RouteCaller, opts: { project: string; agent?: string; conversation?: string; workdir: string }) {
  const wanted: Array<[string, string]> = [
    ['SOUL.md', 'SOUL.md'],
    ['AGENTS.md', 'AGENTS.md'],
  ];
  if (opts.conversation) wanted.push(['MEMORY.md', `${opts.conversation}/MEMORY.md`]);
  const files: Array<{ file: string; content: string }> = [];
  for (const [file, rel] of wanted) {
    const content = await readIfExists(fileIn(opts.workdir, rel));
    if (content !== undefined) files.push({ file, content });
    // A channel name instead of the ID would silently skip the agent's MEMORY.md edits: refuse instead.
    else if (file === 'MEMORY.md' && !opts.conversation!.startsWith('conv_')) {
      throw new StoaError(
        'bad_request',
        `turn commit needs the conversation ID (conv_…): MEMORY.md is kept in .stoa/memory/<conversation id>/, and "${opts.conversation}" is not one`,
      );
    }
  }
  return caller.call(turnRoutes.commit, { project: opts.project, agent: opts.agent, conversation: opts.conversation, files });
}
