import { readFileSync } from 'node:fs';

/**
 * Peak resident set size of a live process (VmHWM in /proc/<pid>/status), in bytes; null when unreadable
 * (process gone, or not Linux).
 *
 * @example
 * const peak = peakRssBytes(server.pid); // e.g. 93_421_568
 */
export function peakRssBytes(pid: number): number | null {
  return statusField(pid, 'VmHWM');
}

/** Current resident set size (VmRSS), in bytes. */
export function currentRssBytes(pid: number): number | null {
  return statusField(pid, 'VmRSS');
}

function statusField(pid: number, field: string): number | null {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+)\\s*kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/**
 * CPU time (user + system) a process has used so far, in ms, from /proc/<pid>/stat (clock ticks of 10 ms);
 * with `thread`, only that thread's (/proc/<pid>/task/<thread>/stat; a process's main thread has its pid).
 * Unlike wall-clock figures, CPU per operation hardly moves when other work shares the machine.
 *
 * @example
 * const before = cpuTimeMs(pid); await work(); const used = cpuTimeMs(pid)! - before!;
 * const mainThread = cpuTimeMs(pid, pid);
 */
export function cpuTimeMs(pid: number, thread?: number): number | null {
  try {
    const stat = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may contain spaces.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(rest[11]) + Number(rest[12])) * 10;
  } catch {
    return null;
  }
}
