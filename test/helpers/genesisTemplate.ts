/**
 * A single-validator home made once per build and copied, for end-to-end suites that need a
 * running chain but do not test the genesis commands themselves (genesis.test.ts and
 * chain.test.ts run those on their own homes).
 *
 * The template is exactly what those suites ran each time: `init`, `keys add alice --recover`
 * (the JUNK mnemonic, keyring-backend test), `add-genesis-account alice 1e24attotoken`, `gentx
 * alice 1e21attotoken`, `collect-gentxs` — five processes of the real binary, ~0.6 s of CPU each
 * and several seconds of wall time on a loaded machine. It is built by the first suite that asks
 * (under a lock, so two jest workers do not both build it) into
 * `<os.tmpdir()>/tokend-test-templates/<build key>`, keyed by this checkout and its dist build,
 * and every suite gets its own copy with `genesis_time` set to now, as `init` would have.
 *
 * Copies share the validator and node keys; the suites using it run one node each with no peers,
 * on their own loopback ports, so the nodes never meet.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, cliOk, tempHome } from './cli.js';

export const JUNK = 'test test test test test test test test test test test junk';
/** alice's address (eth_secp256k1 from JUNK). */
export const JUNK_ADDR = 'token17w0adeg64ky0daxwd2ugyuneellmjgnxp6ktw2';
/** alice's genesis balance and self-delegation in the template. */
export const ALICE_FUNDS = '1000000000000000000000000attotoken';
export const ALICE_STAKE = '1000000000000000000000attotoken';

/** Bump when the recipe below changes (the key also changes with every build). */
const RECIPE = 'single-validator-alice-v1';

function buildKey(): string {
  const stamp = (file: string): string => {
    try {
      return String(statSync(join(REPO_ROOT, file)).mtimeMs);
    } catch {
      return 'none';
    }
  };
  return createHash('sha256').update([RECIPE, REPO_ROOT, stamp('dist/build-info.json'), stamp('oclif.manifest.json'), stamp('dist/bundle')].join('\0')).digest('hex').slice(0, 16);
}

async function buildTemplate(dir: string): Promise<void> {
  const h = ['--home', dir];
  const kb = ['--keyring-backend', 'test', ...h];
  await cliOk(['init', 'node', '--chain-id', 'testnet', ...h]);
  const alice = JSON.parse(await cliOk(['keys', 'add', 'alice', '--recover', '-o', 'json', ...kb], JUNK)).address;
  if (alice !== JUNK_ADDR) throw new Error(`alice recovered as ${alice}, expected ${JUNK_ADDR}`);
  await cliOk(['add-genesis-account', 'alice', ALICE_FUNDS, ...kb]);
  await cliOk(['gentx', 'alice', ALICE_STAKE, ...kb]);
  await cliOk(['collect-gentxs', ...h]);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The template's directory, built now if no one has built it for this build yet. */
async function template(): Promise<string> {
  const root = join(tmpdir(), 'tokend-test-templates');
  mkdirSync(root, { recursive: true });
  const dir = join(root, buildKey());
  const lock = `${dir}.lock`;
  for (;;) {
    if (existsSync(dir)) return dir;
    try {
      mkdirSync(lock);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // Someone is building it: wait, unless the builder died (then take the lock over).
      let owner = NaN;
      try {
        owner = Number(readFileSync(join(lock, 'pid'), 'utf8'));
      } catch {
        // The owner has made the lock but not yet written its pid.
      }
      if (Number.isInteger(owner) && !processAlive(owner)) rmSync(lock, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, 200));
      continue;
    }
    try {
      writeFileSync(join(lock, 'pid'), String(process.pid));
      if (existsSync(dir)) return dir;
      const work = `${dir}.build-${process.pid}`;
      rmSync(work, { recursive: true, force: true });
      await buildTemplate(work);
      renameSync(work, dir);
      return dir;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

/**
 * A new home (under a temp dir named with `prefix`) holding the single-validator template: chain id
 * `testnet`, alice (JUNK mnemonic, keyring-backend test) funded with ALICE_FUNDS and bonded with
 * ALICE_STAKE by a collected gentx; genesis_time now. Further genesis accounts and genesis.json
 * edits are the suite's, before it starts the node.
 */
export async function validatorHome(prefix: string): Promise<string> {
  const source = await template();
  const home = tempHome(prefix);
  cpSync(source, home, { recursive: true });
  const file = join(home, 'config', 'genesis.json');
  const text = readFileSync(file, 'utf8');
  const now = new Date().toISOString().replace(/\.000Z$/, 'Z');
  const updated = text.replace(/"genesis_time": "[^"]*"/, `"genesis_time": "${now}"`);
  if (updated === text) throw new Error(`no genesis_time in ${file}`);
  writeFileSync(file, updated);
  return home;
}
