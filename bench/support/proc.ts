/** Process figures from /proc for the end-to-end benches (Linux; undefined or NaN elsewhere). */
import { readFileSync } from 'node:fs';

/** CPU time (ms) of a process's main thread and of the whole process (all its threads). */
export function cpuMs(pid: number): { main: number; all: number } | undefined {
  const ticks = (path: string): number => {
    const stat = readFileSync(path, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the line (11 and 12 after the command); 100 ticks/s.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  };
  try {
    return { main: ticks(`/proc/${pid}/task/${pid}/stat`), all: ticks(`/proc/${pid}/stat`) };
  } catch {
    return undefined;
  }
}

/** Resident set size (MiB). */
export function rssMiB(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}
