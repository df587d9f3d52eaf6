// `node scripts/run-parallel.js build typecheck lint`: runs those npm scripts at the same time (the
// machine has two cores and each of them is single-threaded for most of its run), prints each
// one's output whole, in the order given (each once it has finished), and exits with the first
// failure's code (in that order) after all have finished.
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
if (names.length === 0) {
  process.stderr.write('usage: node scripts/run-parallel.js SCRIPT [SCRIPT ...]\n');
  process.exit(2);
}

const started = Date.now();
const runs = names.map(
  (name) =>
    new Promise((resolve) => {
      const chunks = [];
      const child = spawn('npm', ['run', '--silent', name], { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.on('data', (c) => chunks.push(c));
      child.stderr.on('data', (c) => chunks.push(c));
      child.on('error', (err) => resolve({ name, code: 1, output: `${err.message}\n` }));
      child.on('close', (code, signal) => resolve({ name, code: code ?? 1, signal, output: Buffer.concat(chunks).toString(), seconds: (Date.now() - started) / 1000 }));
    }),
);

let failed = 0;
for (const run of runs) {
  const { name, code, signal, output, seconds } = await run;
  process.stdout.write(`\n> npm run ${name}\n${output}`);
  process.stdout.write(`> ${name}: ${code === 0 ? 'ok' : `failed (${signal ?? `exit ${code}`})`} after ${seconds?.toFixed(1) ?? '?'} s\n`);
  if (code !== 0 && failed === 0) failed = code;
}
process.exit(failed);
