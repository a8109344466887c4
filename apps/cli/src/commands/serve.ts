import type { Command } from 'commander';
import { reportError } from '../output.js';
import { localDataDir } from '../context.js';

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('Run the Stoa server (HTTP API, web UI, MCP)')
    .option('--port <port>', 'port to listen on', '8080')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .action(async (opts: { port: string; host: string }, cmd: Command) => {
      const g = cmd.optsWithGlobals() as { data?: string };
      try {
        const port = Number(opts.port);
        if (!Number.isInteger(port) || port < 0 || port > 65535) throw Object.assign(new Error('--port must be 0–65535'), {});
        // Loaded here, not at the top: other commands should not pay for loading the core and the HTTP server.
        const { loadConfig } = await import('@stoa/core');
        const { startServer } = await import('@stoa/server');
        const config = loadConfig({ dataDir: localDataDir(g), env: process.env });
        const s = await startServer(config, { port, host: opts.host });
        process.stdout.write(`Stoa is listening on ${s.url}\n`);
        process.stdout.write(
          `Database: ${config.database.kind === 'sqlite' ? 'SQLite (embedded)' : 'PostgreSQL'}; storage: ${config.storage.kind === 'fs' ? 'local files' : 'S3-compatible'}\n`,
        );
        if (s.adminToken) process.stdout.write(`Admin token (shown once, keep it): ${s.adminToken}\n`);
        else if (config.adminToken) process.stdout.write('Admin token: the one in STOA_ADMIN_TOKEN\n');
        // A data folder served before keeps its token, which was shown only once; say how to get another.
        else
          process.stdout.write(
            `Admin token: the one printed when this data folder was first served (a new one: stoa --data ${g.data ?? './stoa-data'} tokens create --user admin)\n`,
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
