/**
 * Summarises V8 heap snapshots (bench/e2e/memlog.mjs writes them): objects grouped by type and
 * constructor name, with count and self size; given two snapshots, the groups that grew most.
 *
 *   node --max-old-space-size=6000 bench/e2e/heapsummary.mjs before.heapsnapshot [after.heapsnapshot] [top]
 */
import { readFileSync } from 'node:fs';
import process from 'node:process';

function summarise(path) {
  const snapshot = JSON.parse(readFileSync(path, 'utf8'));
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const { nodes, strings } = snapshot;
  const groups = new Map();
  let total = 0;
  for (let i = 0; i < nodes.length; i += width) {
    const type = types[nodes[i + typeAt]];
    let name = type === 'object' || type === 'closure' || type === 'native' || type === 'hidden' ? strings[nodes[i + nameAt]] : '';
    if (name.length > 60) name = `${name.slice(0, 57)}...`;
    const key = `${type}\t${name}`;
    const size = nodes[i + sizeAt];
    total += size;
    const group = groups.get(key);
    if (group) {
      group.count++;
      group.size += size;
    } else groups.set(key, { count: 1, size });
  }
  return { groups, total, count: nodes.length / width };
}

const mib = (n) => (n / 1048576).toFixed(1);
const [first, second, topText] = process.argv.slice(2);
if (!first) {
  process.stderr.write('usage: heapsummary.mjs <snapshot> [<later snapshot>] [top]\n');
  process.exit(2);
}
const top = Number(topText ?? (second && /^\d+$/.test(second) ? second : 40));
const a = summarise(first);
process.stdout.write(`${first}: ${a.count} objects, ${mib(a.total)} MiB self size\n`);
if (second && !/^\d+$/.test(second)) {
  const b = summarise(second);
  process.stdout.write(`${second}: ${b.count} objects, ${mib(b.total)} MiB self size\n\ngrowth (MiB, count):\n`);
  const keys = new Set([...a.groups.keys(), ...b.groups.keys()]);
  const rows = [...keys].map((key) => {
    const x = a.groups.get(key) ?? { count: 0, size: 0 };
    const y = b.groups.get(key) ?? { count: 0, size: 0 };
    return { key, delta: y.size - x.size, count: y.count - x.count, after: y.size };
  });
  rows.sort((p, q) => q.delta - p.delta);
  for (const row of rows.slice(0, top)) process.stdout.write(`${mib(row.delta).padStart(8)} ${String(row.count).padStart(9)}  ${mib(row.after).padStart(8)} MiB now  ${row.key}\n`);
} else {
  const rows = [...a.groups.entries()].sort((p, q) => q[1].size - p[1].size);
  for (const [key, group] of rows.slice(0, top)) process.stdout.write(`${mib(group.size).padStart(8)} ${String(group.count).padStart(9)}  ${key}\n`);
}
