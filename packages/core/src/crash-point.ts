import type { StoaConfig } from './config.js';

/**
 * A named point where a crash-recovery test may cut the server off (`STOA_TEST_CRASH_AT`): the process ends at
 * once with SIGKILL — no finally blocks, no flushed buffers, no closed connections — as a power cut there
 * would. Does nothing unless that very point is configured.
 *
 * @example
 * crashPoint(platform.config, 'upload.finish.promoted');
 */
export function crashPoint(config: StoaConfig, name: string): void {
  if (config.testCrashAt === name) process.kill(process.pid, 'SIGKILL');
}
