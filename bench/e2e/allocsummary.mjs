/**
 * What the node allocated, by function: reads a sampling heap profile written by
 * bench/e2e/memlog.mjs (TOKEND_MEMLOG_ALLOCPROF=1, objects already collected included) and prints
 * the functions whose own allocations were largest, with their share, then the same grouped by
 * source file.
 *
 *   node bench/e2e/allocsummary.mjs <alloc-2.heapprofile> [top=40] [perTx divisor]
 */
import { readFileSync } from 'node:fs';
import process from 'node:process';

const [path, topArg = '40', txsArg] = process.argv.slice(2);
if (!path) {
  process.stderr.write('usage: node bench/e2e/allocsummary.mjs <file.heapprofile> [top] [txs]\n');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(path, 'utf8'));
const byFunction = new Map();
const byFile = new Map();
let total = 0;
const short = (url) => url.replace(/^file:\/\//, '').replace(/^.*\/(dist|src|node_modules)\//, '$1/');
(function walk(node) {
  const frame = node.callFrame;
  const file = short(frame.url) || '(native)';
  const key = `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + node.selfSize);
  byFile.set(file, (byFile.get(file) ?? 0) + node.selfSize);
  total += node.selfSize;
  for (const child of node.children) walk(child);
})(profile.head);

const txs = txsArg ? Number(txsArg) : undefined;
const mib = (bytes) => (bytes / 1048576).toFixed(1).padStart(8);
const line = (bytes, name) =>
  `${mib(bytes)} MiB ${((100 * bytes) / total).toFixed(1).padStart(5)} %${txs ? ` ${(bytes / txs / 1024).toFixed(2).padStart(7)} KiB/tx` : ''}  ${name}`;
process.stdout.write(`allocated (sampled): ${mib(total)} MiB${txs ? `, ${(total / txs / 1024).toFixed(1)} KiB per tx over ${txs} txs` : ''}\n\nby function:\n`);
for (const [name, bytes] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg))) process.stdout.write(`${line(bytes, name)}\n`);
process.stdout.write('\nby file:\n');
for (const [name, bytes] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg))) process.stdout.write(`${line(bytes, name)}\n`);
