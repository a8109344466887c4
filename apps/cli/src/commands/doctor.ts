import type { Command } from 'commander';
import { routeIndex } from '@stoa/contract/route-index';
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
        const r = await api.call(routeIndex.admin.doctor, { repair: !!opts.repair });
        print(!!g.json, r, () => {
          const c = r.checked;
          const lines = [`Checked ${c.projects} projects, ${c.volumes} volumes, ${c.files} files, ${c.versions} versions, ${c.storedBlobs} stored blobs.`];
          if (r.inGrace.blobs > 0)
            lines.push(
              `${r.inGrace.blobs} unreferenced blobs (${r.inGrace.bytes} bytes) wait out the sweep's ${r.inGrace.graceSeconds}-second grace period (not drift; the sweep collects them).`,
            );
          for (const f of r.findings) lines.push(`${f.repaired ? 'repaired' : 'found   '} ${f.kind}${f.project ? ` [${f.project}]` : ''}: ${f.detail}`);
          // Say exactly what the repair changed — never "success" with nothing done (issue 28).
          if (opts.repair) lines.push(...(r.repairs.length ? r.repairs.map((x) => `changed: ${x}`) : ['Repair changed nothing.']));
          if (r.findings.length === 0) lines.push('No drift found.');
          else
            lines.push(
              r.ok
                ? 'Everything found was repaired.'
                : opts.repair
                  ? 'Some findings are not repaired (see above).'
                  : 'Run with --repair to fix what can be fixed.',
            );
          return lines.join('\n');
        });
        if (!r.ok) process.exitCode = 1;
      }),
    );
}
