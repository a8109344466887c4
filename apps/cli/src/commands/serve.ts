import type { Command } from 'commander';
import { reportError } from '../output.js';
import { relative } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { localDataDir, refuseEmptyOptions, type GlobalOptions } from '../context.js';

/** V8's own default growth factor of the young generation, restored once the server listens. */
const V8_SEMI_SPACE_GROWTH = 2;

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('Run the Stoa server (HTTP API, web UI, MCP)')
    .option('--port <port>', 'port to listen on', '8080')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .action(async (opts: { port: string; host: string }, cmd: Command) => {
      const g = cmd.optsWithGlobals() as GlobalOptions;
      try {
        refuseEmptyOptions(g);
        const port = Number(opts.port);
        if (!Number.isInteger(port) || port < 0 || port > 65535) throw Object.assign(new Error('--port must be 0–65535'), {});
        // Start-up makes tens of MB of short-lived garbage (route schemas, compiled modules); with V8's young
        // generation left to double as it fills, an idle server then keeps ~30 MB of empty young-generation pages
        // for good. Growth is held off until the server listens and allowed again after (issue 31: idle RSS).
        setFlagsFromString('--semi-space-growth-factor=1');
        // Loaded here, not at the top: other commands should not pay for loading the core and the HTTP server.
        const { loadConfig } = await import('@stoa/core');
        const { startServer } = await import('@stoa/server');
        const dataDir = localDataDir(g);
        const config = loadConfig({ dataDir, env: process.env });
        const s = await startServer(config, { port, host: opts.host });
        setFlagsFromString(`--semi-space-growth-factor=${V8_SEMI_SPACE_GROWTH}`);
        process.stdout.write(`Stoa is listening on ${s.url}\n`);
        process.stdout.write(
          `Database: ${config.database.kind === 'sqlite' ? 'SQLite (embedded)' : 'PostgreSQL'}; storage: ${config.storage.kind === 'fs' ? 'local files' : 'S3-compatible'}\n`,
        );
        process.stdout.write(
          banner({ url: s.url, printedToken: s.adminToken, envToken: !!config.adminToken, dataDir, postgres: config.database.kind !== 'sqlite' }),
        );
        process.stdout.write(`Log in to the web UI (one-time link): ${s.loginUrl}\n`);
        const stop = async () => {
          await s.close();
          process.exit(0);
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      } catch (e) {
        process.exitCode = reportError(e);
      }
    });
}

/**
 * What a newcomer needs to reach this server as the installation administrator from another shell (issues 28,
 * 32): the token (printed once, on the first start), and commands that work as written — remote ones with
 * STOA_URL and STOA_TOKEN, and for a lost token a local one that reaches this server's own database.
 */
function banner(o: { url: string; printedToken: string | null; envToken: boolean; dataDir: string; postgres: boolean }): string {
  const lines: string[] = [];
  if (o.printedToken) lines.push(`Admin token (shown once, keep it): ${o.printedToken}`);
  else if (o.envToken) lines.push('Admin token: the one in STOA_ADMIN_TOKEN');
  else {
    // A local command on the same database: on PostgreSQL the data folder alone would open a SQLite file.
    const rel = relative(process.cwd(), o.dataDir);
    const dir = !rel ? '.' : rel.startsWith('..') ? o.dataDir : rel;
    const local = `${o.postgres ? "STOA_DATABASE_URL='<this server's database URL>' " : ''}npx stoa --data ${dir.includes(' ') ? JSON.stringify(dir) : dir}`;
    lines.push(`Admin token: the one printed when this data folder was first served; a new one: ${local} tokens create --installation`);
  }
  const token = o.printedToken ?? (o.envToken ? '"$STOA_ADMIN_TOKEN"' : '<admin token>');
  lines.push(
    'From another shell, as the installation administrator:',
    `  export STOA_URL=${o.url} STOA_TOKEN=${token}`,
    '  npx stoa doctor          # or any command; npx stoa login-link prints a fresh web UI link',
  );
  return lines.join('\n') + '\n';
}
