import { execFileSync } from 'node:child_process';

/**
 * Builds the `stoa` command once before the tests, so every acceptance test runs the compiled binary a user
 * runs (apps/cli/bin/stoa.js → apps/cli/dist), built from the sources as they are now (esbuild: well under a second).
 */
export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build.mjs', '--quiet'], { stdio: 'inherit' });
}
