/**
 * The `tendermint` and `testnet init-files` commands as a user runs them: node and validator
 * identities, versions, the two resets (data removed, keys kept, a running node's home refused),
 * and bad input (one line, non-zero exit, nothing written).
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { BIN, runCli, snapshotTree, tempHome, cliOk as ok } from '../helpers/cli.js';
import { validatorHome } from '../helpers/genesisTemplate.js';
import { type BackgroundNode, fastBlocks, startOnFreePorts, stopNode } from '../helpers/node.js';

const running: BackgroundNode[] = [];
afterAll(async () => {
  for (const bg of running) await stopNode(bg, 'SIGKILL');
});


describe('tendermint commands', () => {
  const home = tempHome('tokend-tm-');

  it('show-node-id, show-validator, show-address and version', async () => {
    const init = JSON.parse(await ok(['init', 'tm', '--chain-id', 'tm-chain', '--home', home]));
    expect((await ok(['tendermint', 'show-node-id', '--home', home])).trim()).toBe(init.node_id);
    expect(JSON.parse(await ok(['tendermint', 'show-node-id', '--home', home, '-o', 'json']))).toEqual({ node_id: init.node_id });
    const key = JSON.parse(readFileSync(join(home, 'config', 'priv_validator_key.json'), 'utf8'));
    expect(JSON.parse(await ok(['tendermint', 'show-validator', '--home', home]))).toEqual({ '@type': '/cosmos.crypto.ed25519.PubKey', key: key.pub_key.value });
    const address = (await ok(['tendermint', 'show-address', '--home', home])).trim();
    expect(address).toMatch(/^tokenvalcons1[02-9ac-hj-np-z]+$/);
    const decoded = JSON.parse(await ok(['debug', 'addr', address, '-o', 'json']));
    expect(JSON.stringify(decoded).toUpperCase()).toContain(init.validator_address);
    expect(JSON.parse(await ok(['tendermint', 'version', '-o', 'json']))).toEqual({ cometbft: expect.stringMatching(/^0\.38\./), abci: '2.0.0', blockprotocol: 11, p2pprotocol: 8 });
  }, 60000);

  it('reset-state keeps the app state and keys; unsafe-reset-all removes all data and resets the sign state; a running node is refused', async () => {
    // A single-validator home (init, a key, add-genesis-account, gentx, collect-gentxs): the shared template (test/helpers/genesisTemplate.ts).
    const h = await validatorHome('tokend-reset-');
    fastBlocks(h);
    const bg = await startOnFreePorts(h, 3);
    running.push(bg);
    const busy = await runCli(['tendermint', 'unsafe-reset-all', '--home', h]);
    expect(busy.code).not.toBe(0);
    expect(busy.stderr).toMatch(/a node is already running with home/);
    expect(await stopNode(bg)).toBe(0);

    const keyBefore = readFileSync(join(h, 'config', 'priv_validator_key.json'), 'utf8');
    const reset = await ok(['tendermint', 'reset-state', '--home', h]);
    expect(reset).toMatch(/Removed .*tokend\.db/);
    expect(existsSync(join(h, 'data', 'cs.wal'))).toBe(false);
    const all = await ok(['tendermint', 'unsafe-reset-all', '--home', h, '-o', 'json']);
    expect(JSON.parse(all).validator_state).toMatch(/to height 0/);
    expect(existsSync(join(h, 'data', 'tokend.db'))).toBe(false);
    expect(JSON.parse(readFileSync(join(h, 'data', 'priv_validator_state.json'), 'utf8'))).toMatchObject({ height: '0', round: 0, step: 0 });
    expect(readFileSync(join(h, 'config', 'priv_validator_key.json'), 'utf8')).toBe(keyBefore);
  }, 120000);

  it('bootstrap-state without a light client configured: one line, nothing written', async () => {
    const before = snapshotTree(home);
    const res = await runCli(['tendermint', 'bootstrap-state', '--height', '5', '--home', home]);
    expect(res.code).not.toBe(0);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(/rpc_servers needs at least two servers/);
    const after = snapshotTree(home);
    for (const [path, stamp] of Object.entries(before)) if (!path.includes('tokend.db')) expect(after[path]).toBe(stamp);
  }, 60000);
});

describe('testnet init-files bad input', () => {
  it('refuses --v 0, a non-IPv4 starting address, and an output dir that already holds nodes; writes nothing', async () => {
    const out = tempHome('tokend-tn-bad-');
    const zero = await runCli(['testnet', 'init-files', '--v', '0', '--output-dir', out]);
    expect(zero.code).not.toBe(0);
    expect(snapshotTree(out)).toEqual({});
    const ip = await runCli(['testnet', 'init-files', '--v', '2', '--output-dir', out, '--starting-ip-address', 'not-an-ip']);
    expect(ip.code).toBe(1);
    expect(ip.stderr).toMatch(/--starting-ip-address not-an-ip: non ipv4 address/);
    expect(snapshotTree(out)).toEqual({});
    await ok(['testnet', 'init-files', '--v', '1', '--output-dir', out, '--chain-id', 'x', '--base-port', '22000']);
    const before = snapshotTree(out);
    const again = await runCli(['testnet', 'init-files', '--v', '1', '--output-dir', out, '--chain-id', 'x']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already holds a node/);
    expect(snapshotTree(out)).toEqual(before);
  }, 60000);
});

describe('testnet start', () => {
  it('runs --v 2 validators in one process until SIGTERM', async () => {
    const out = tempHome('tokend-tn-start-');
    // Ports 22100–22119 (below the ephemeral range; this file's own range).
    const child = spawn(process.execPath, [BIN, 'testnet', 'start', '--v', '2', '--output-dir', out, '--chain-id', 'tn-start', '--base-port', '22100'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let logs = '';
    child.stdout.on('data', (c: Buffer) => (logs += c.toString()));
    child.stderr.on('data', (c: Buffer) => (logs += c.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      for (const port of [22101, 22111]) {
        const deadline = Date.now() + 60000;
        for (;;) {
          const h = await fetch(`http://127.0.0.1:${port}/status`)
            .then(async (r) => Number(((await r.json()) as { result: { sync_info: { latest_block_height: string } } }).result.sync_info.latest_block_height))
            .catch(() => 0);
          if (h >= 2) break;
          if (Date.now() > deadline) throw new Error(`node on ${port} did not commit blocks\n${logs}`);
          await new Promise((r) => setTimeout(r, 200));
        }
      }
      expect(logs).toMatch(/initialized 2 validators \(chain id tn-start\)/);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 90000);
});
