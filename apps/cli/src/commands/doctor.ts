import type { Command } from 'commander';
import { adminRoutes } from '@stoa/contract';
import { action } from '../context.js';
import { print } from '../output.js';

/**
 * `stoa doctor [--repair]`: checks usage against the sum of sizes, the folder index, rows without their bytes
 * and orphaned blobs — on a data folder (local) or through the server's admin operation (remote). Exits 1 while
 * something is left unfixed, so scripts can alert on it.
 */
export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('Check storage for drift (usage, folders, missing or orphaned blobs); --repair fixes what can be fixed')
    .option('--repair', 'fix usage counters and the folder index, collect orphaned blobs past the grace period')
    .action(
      action(async (api, g, opts: { repair?: boolean }) => {
        const r = await api.call(adminRoutes.doctor, { repair: !!opts.repair });
        print(!!g.json, r, () => {
          const head = `Checked ${r.checked.projects} projects, ${r.checked.files} files, ${r.checked.versions} versions, ${r.checked.storedBlobs} stored blobs.`;
          if (r.findings.length === 0) return `${head}\nNo drift found.`;
          const lines = r.findings.map((f) => `${f.repaired ? 'repaired' : 'found   '} ${f.kind}${f.project ? ` [${f.project}]` : ''}: ${f.detail}`);
          return [
            head,
            ...lines,
            r.ok ? 'Everything found was repaired.' : opts.repair ? 'Some findings cannot be repaired.' : 'Run with --repair to fix what can be fixed.',
          ].join('\n');
        });
        if (!r.ok) process.exitCode = 1;
      }),
    );
}
