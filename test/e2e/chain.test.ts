/**
 * End-to-end, with the real binary: init → keys add (two keys) → add-genesis-account → gentx →
 * collect-gentxs → validate-genesis → start in the background → tx send included in a block →
 * both balances changed by exactly amount and fee → kill -9 → start again → same height and app
 * hash, blocks continue → rollback → export, and the exported genesis validates and starts.
 */
import { jest } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempHome, snapshotTree, cliOk as ok } from '../helpers/cli.js';
import { fastBlocks, startOnFreePorts, status, stopNode, waitForHeight, type BackgroundNode } from '../helpers/node.js';

jest.setTimeout(300_000);

const KB = ['--keyring-backend', 'test'];


async function balance(node: string, address: string): Promise<bigint> {
  const out = JSON.parse(await ok(['q', 'bank', 'balances', address, '--node', node, '-o', 'json']));
  const coin = out.balances.find((c: { denom: string }) => c.denom === 'attotoken');
  return BigInt(coin?.amount ?? '0');
}

describe('a single-validator chain from genesis to export', () => {
  const running: BackgroundNode[] = [];
  afterAll(async () => {
    for (const bg of running) await stopNode(bg, 'SIGKILL');
  });

  test('genesis flow, send, crash recovery, rollback, export', async () => {
    const home = tempHome('tokend-chain-');
    const h = ['--home', home];
    await ok(['init', 'node0', '--chain-id', 'testnet', ...h]);
    fastBlocks(home);
    const [alice, bob] = (await Promise.all(['alice', 'bob'].map(async (name) => JSON.parse(await ok(['keys', 'add', name, ...KB, ...h, '-o', 'json'])).address))) as [string, string];
    await ok(['add-genesis-account', 'alice', '1000000000000000000000000attotoken', ...KB, ...h]);
    await ok(['add-genesis-account', bob, '5000attotoken', ...h]);
    await ok(['gentx', 'alice', '1000000000000000000000attotoken', '--chain-id', 'testnet', ...KB, ...h]);
    await ok(['collect-gentxs', ...h]);
    expect(await ok(['validate-genesis', ...h])).toContain('is a valid genesis file');

    let bg = await startOnFreePorts(home, 1, [], 60_000);
    running.push(bg);
    await waitForHeight(bg.node, 2);
    // `tokend start` owns its process: it gives memory back after a load, after app.toml's 10 s.
    expect(bg.logs()).toMatch(/node started .*memory_release_idle_seconds=10/);

    const [aliceBefore, bobBefore] = await Promise.all([balance(bg.node, alice), balance(bg.node, bob)]);
    expect(bobBefore).toBe(5000n);
    const fee = 200000n;
    const amount = 1234567n;
    const sent = JSON.parse(await ok(['tx', 'send', 'alice', bob, `${amount}attotoken`, '--fees', `${fee}attotoken`, '--chain-id', 'testnet', '--yes', '-b', 'block', '--node', bg.node, ...KB, ...h, '-o', 'json']));
    expect(sent.code).toBe(0);
    expect(Number(sent.height)).toBeGreaterThan(0);
    // The tx is found by hash, included in a block.
    const found = JSON.parse(await ok(['q', 'tx', sent.txhash, '--node', bg.node, '-o', 'json']));
    expect(found).toMatchObject({ txhash: sent.txhash, height: sent.height, code: 0 });
    const [aliceAfter, bobAfter, accountOut] = await Promise.all([balance(bg.node, alice), balance(bg.node, bob), ok(['q', 'account', alice, '--node', bg.node, '-o', 'json'])]);
    expect(aliceAfter).toBe(aliceBefore - amount - fee);
    expect(bobAfter).toBe(bobBefore + amount);
    const account = JSON.parse(accountOut);
    expect(account).toMatchObject({ '@type': '/ethermint.types.v1.EthAccount', address: alice, sequence: '2' });

    // `tokend status` (the helpers poll the RPC's /status over HTTP instead): the node's sync info.
    const cliStatus = JSON.parse(await ok(['status', '--node', bg.node, '-o', 'json']));
    // kill -9 at an arbitrary moment, then start again on the same home.
    const before = (await status(bg.node))!;
    expect(cliStatus.node_info.network).toBe('testnet');
    expect(Number(cliStatus.sync_info.latest_block_height)).toBeGreaterThanOrEqual(Number(sent.height));
    expect(Number(cliStatus.sync_info.latest_block_height)).toBeLessThanOrEqual(before.height);
    expect(cliStatus.sync_info).toMatchObject({ latest_block_hash: expect.stringMatching(/^[0-9A-F]{64}$/), latest_app_hash: expect.stringMatching(/^[0-9A-F]{64}$/), catching_up: false });
    bg.child.kill('SIGKILL');
    await bg.exited;
    bg = await startOnFreePorts(home, 1, [], 60_000);
    running.push(bg);
    const resumed = await waitForHeight(bg.node, before.height);
    expect(resumed).toBeGreaterThanOrEqual(before.height);
    // The last block seen before the kill is still there, unchanged (status' app hash is that
    // block's header app_hash, as in CometBFT).
    const blockAfter = JSON.parse(await ok(['q', 'block', String(before.height), '--node', bg.node, '-o', 'json']));
    expect(blockAfter.block_id.hash).toBe(before.blockHash);
    expect(blockAfter.block.header.app_hash).toBe(before.appHash);
    await waitForHeight(bg.node, before.height + 2);
    expect(await balance(bg.node, bob)).toBe(bobBefore + amount);

    // A second node on the same home is refused with one clear line.
    const second = await runCli(['start', '--home', home, '--rpc.laddr', 'tcp://127.0.0.1:0', '--api.address', 'tcp://127.0.0.1:0', '--grpc.address', '127.0.0.1:0'], { timeoutMs: 30000 });
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/a node is already running with home/);

    // Clean stop, rollback one height, export.
    expect(await stopNode(bg, 'SIGTERM')).toBe(0);
    const latest = JSON.parse(await ok(['export', ...h]));
    const stopHeight = Number(latest.initial_height) - 1;
    const previous = JSON.parse(await ok(['export', '--height', String(stopHeight - 1), ...h]));
    const last = JSON.parse(await ok(['rollback', ...h, '-o', 'json']));
    // One height down, and the app state is exactly the previous height's.
    expect(last.height).toBe(stopHeight - 1);
    const rolledBack = JSON.parse(await ok(['export', ...h]));
    expect(Number(rolledBack.initial_height)).toBe(stopHeight);
    expect(rolledBack.app_state).toEqual(previous.app_state);
    // Started again, the node executes the rolled-back block anew: its header commits the
    // rolled-back app hash, and the chain goes on.
    bg = await startOnFreePorts(home, 1, [], 60_000);
    running.push(bg);
    await waitForHeight(bg.node, stopHeight + 1);
    const replayed = JSON.parse(await ok(['q', 'block', String(stopHeight), '--node', bg.node, '-o', 'json']));
    expect(replayed.block.header.app_hash).toBe(last.app_hash);
    expect(await stopNode(bg, 'SIGTERM')).toBe(0);
    const exportedFile = join(tempHome(), 'exported.json');
    await ok(['export', '--output-document', exportedFile, ...h]);
    expect(await ok(['validate-genesis', exportedFile])).toContain('is a valid genesis file');

    // The exported genesis starts a new chain with identical balances.
    const fresh = tempHome('tokend-fresh-');
    await ok(['init', 'node1', '--chain-id', 'testnet', '--home', fresh]);
    fastBlocks(fresh);
    // The same validator key signs the new chain.
    writeFileSync(join(fresh, 'config', 'priv_validator_key.json'), (await import('node:fs')).readFileSync(join(home, 'config', 'priv_validator_key.json')));
    writeFileSync(join(fresh, 'config', 'genesis.json'), (await import('node:fs')).readFileSync(exportedFile));
    const bg2 = await startOnFreePorts(fresh, 1, [], 60_000);
    running.push(bg2);
    // Block initial_height + 1 saved: the app has committed the new chain's first block.
    await waitForHeight(bg2.node, Number(JSON.parse((await import('node:fs')).readFileSync(exportedFile, 'utf8')).initial_height) + 1);
    expect(await Promise.all([balance(bg2.node, bob), balance(bg2.node, alice)])).toEqual([bobBefore + amount, aliceBefore - amount - fee]);
    await stopNode(bg2);
  });

  test('genesis bad input: one line, non-zero exit, nothing changed', async () => {
    const home = tempHome('tokend-badgen-');
    const h = ['--home', home];
    await ok(['init', 'node0', ...h]);
    const before = snapshotTree(home);
    const again = await runCli(['init', 'node0', ...h]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^Error: genesis.json file already exists: .*--overwrite/);
    for (const [args, pattern] of [
      [['add-genesis-account', 'token1notanaddress', '5attotoken'], /address|key/i],
      [['add-genesis-account', 'token17w0adeg64ky0daxwd2ugyuneellmjgnxp6ktw2', '5'], /invalid coins/],
      [['add-genesis-account', 'token17w0adeg64ky0daxwd2ugyuneellmjgnxp6ktw2', '-5attotoken'], /invalid coins/],
      [['gentx', 'nobody', '5attotoken', ...KB], /nobody/],
      [['collect-gentxs'], /no gentx files/],
    ] as const) {
      const result = await runCli([...args, ...h]);
      expect(result.code).not.toBe(0);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(pattern);
      expect(snapshotTree(home)).toEqual(before);
    }
    await ok(['add-genesis-account', 'token17w0adeg64ky0daxwd2ugyuneellmjgnxp6ktw2', '5attotoken', ...h]);
    const dup = await runCli(['add-genesis-account', 'token17w0adeg64ky0daxwd2ugyuneellmjgnxp6ktw2', '5attotoken', ...h]);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toMatch(/existing address/);
    // An underfunded gentx is refused before anything is written.
    await ok(['keys', 'add', 'poor', ...KB, ...h]);
    await ok(['add-genesis-account', 'poor', '10attotoken', ...KB, ...h]);
    const poor = await runCli(['gentx', 'poor', '1000attotoken', ...KB, ...h]);
    expect(poor.code).toBe(1);
    expect(poor.stderr).toMatch(/less than the self-delegation/);
  });
});
