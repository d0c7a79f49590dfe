// bench/scale_lib.mjs: what the cells of `make bench-scale` share
// (bench/scale.mjs, scale_pw.mjs, scale_mcp.mjs): statistics and the
// memory of a process tree read from /proc.
import { readFileSync, readdirSync } from 'node:fs';

/** Median and 95th percentile (nearest rank), as bench/lib.lua's. */
export function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  if (n === 0) return { median: null, p95: null, n: 0 };
  const median = n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  return { median, p95: s[Math.min(n, Math.max(1, Math.ceil(0.95 * n))) - 1], n };
}

/** Every live process: pid -> parent pid. */
function parents() {
  const map = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const s = readFileSync(`/proc/${d}/stat`, 'utf8');
      // The command name is in parentheses and may hold spaces.
      const rest = s.slice(s.lastIndexOf(')') + 2).split(' ');
      if (rest[0] !== 'Z') map.set(Number(d), Number(rest[1]));
    } catch { /* gone meanwhile */ }
  }
  return map;
}

/** The RSS of one process in KiB (0 when it is gone). */
export function rssKib(pid) {
  try {
    const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(/\nVmRSS:\s+(\d+)/);
    return m ? Number(m[1]) : 0;
  } catch { return 0; }
}

/** { host_kib, browser_kib, browser_processes }: the summed RSS of the
 * host processes, and of every descendant of theirs that is not one. */
export function treeMemory(hostPids) {
  const ppid = parents();
  const hosts = new Set(hostPids);
  const isUnder = (pid) => {
    for (let p = ppid.get(pid); p && p > 1; p = ppid.get(p)) if (hosts.has(p)) return true;
    return false;
  };
  let host = 0, browser = 0, count = 0;
  for (const pid of hosts) host += rssKib(pid);
  for (const pid of ppid.keys()) {
    if (!hosts.has(pid) && isUnder(pid)) { browser += rssKib(pid); count++; }
  }
  return { host_kib: host, browser_kib: browser, browser_processes: count };
}
