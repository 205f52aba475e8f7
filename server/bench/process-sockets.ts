import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

/** ESTABLISHED in the kernel's /proc/net/tcp state column. */
const ESTABLISHED = '01';

/** `pid` and every process below it (Linux /proc children lists). */
function processTree(pid: number): number[] {
  const tree = [pid];
  for (let i = 0; i < tree.length; i += 1) {
    for (const task of readdirSync(`/proc/${tree[i]}/task`)) {
      try {
        const children = readFileSync(`/proc/${tree[i]}/task/${task}/children`, 'utf8').trim();
        if (children) tree.push(...children.split(/\s+/).map(Number));
      } catch {
        continue; // the thread ended between the listing and the read
      }
    }
  }
  return tree;
}

/**
 * The established TCP connections process `pid` and its descendants hold to any of `remotePorts` (Linux: their
 * socket descriptors matched by inode to the network namespace's /proc tables); NaN where /proc cannot be read.
 */
export function establishedConnections(pid: number, remotePorts: ReadonlySet<number>): number {
  try {
    const inodes = new Set<string>();
    for (const member of processTree(pid)) {
      for (const fd of readdirSync(`/proc/${member}/fd`)) {
        let target: string;
        try {
          target = readlinkSync(`/proc/${member}/fd/${fd}`);
        } catch {
          continue; // closed between the listing and the read
        }
        const match = /^socket:\[(\d+)\]$/.exec(target);
        if (match) inodes.add(match[1]);
      }
    }
    let count = 0;
    for (const table of ['tcp', 'tcp6']) {
      for (const line of readFileSync(`/proc/${pid}/net/${table}`, 'utf8').split('\n').slice(1)) {
        const fields = line.trim().split(/\s+/);
        if (fields.length < 10 || fields[3] !== ESTABLISHED || !inodes.has(fields[9])) continue;
        const remotePort = Number.parseInt(fields[2].split(':')[1], 16);
        if (remotePorts.has(remotePort)) count += 1;
      }
    }
    return count;
  } catch {
    return Number.NaN;
  }
}
