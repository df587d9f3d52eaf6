/**
 * A network of separate processes on loopback, as an operator runs one: `testnet init-files`
 * makes 4 validator homes; each `tokend start` is its own process talking CometBFT's p2p
 * protocol over TCP. Killing one validator (kill -9) does not stop the chain, killing two halts
 * it, restarting them resumes it with the same blocks everywhere. A full node started later with
 * only persistent_peers catches up by block sync and follows; a tx sent to it is included by the
 * validators; a second full node joins by state sync (a snapshot verified through the light
 * client, then block sync). A wrong trust_hash refuses the start. A validator key run by two
 * processes at once produces duplicate-vote evidence that is committed on chain.
 *
 * Ports: this file uses 21100–21199 (below the ephemeral range, so parallel test files that bind
 * port 0 never collide with it).
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, runCli, tempHome } from '../helpers/cli.js';

const BASE_PORT = 21100;
const FULL_NODE_PORTS = { p2p: BASE_PORT + 60, rpc: BASE_PORT + 61, api: BASE_PORT + 62, grpc: BASE_PORT + 63, jsonRpc: BASE_PORT + 64, jsonRpcWs: BASE_PORT + 65 };
const TWIN_PORTS = { p2p: BASE_PORT + 70, rpc: BASE_PORT + 71, api: BASE_PORT + 72, grpc: BASE_PORT + 73, jsonRpc: BASE_PORT + 74, jsonRpcWs: BASE_PORT + 75 };
const SYNC_PORTS = { p2p: BASE_PORT + 80, rpc: BASE_PORT + 81, api: BASE_PORT + 82, grpc: BASE_PORT + 83, jsonRpc: BASE_PORT + 84, jsonRpcWs: BASE_PORT + 85 };

interface Proc {
  child: ChildProcess;
  logs: () => string;
  exited: Promise<number | null>;
}

const procs: Proc[] = [];
afterAll(async () => {
  for (const p of procs) {
    if (p.child.exitCode === null && p.child.signalCode === null) {
      p.child.kill('SIGKILL');
      await p.exited;
    }
  }
});

function startHome(home: string, extra: string[] = []): Proc {
  const child = spawn(process.execPath, [BIN, 'start', '--home', home, ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
  let logs = '';
  child.stdout!.on('data', (c: Buffer) => (logs += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (logs += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const proc = { child, logs: () => logs, exited };
  procs.push(proc);
  return proc;
}

async function kill9(proc: Proc): Promise<void> {
  proc.child.kill('SIGKILL');
  await proc.exited;
}

async function rpc<T>(port: number, method: string, params: Record<string, unknown> = {}): Promise<T | undefined> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), signal: AbortSignal.timeout(3000) });
    const body = (await res.json()) as { result?: T };
    return body.result;
  } catch {
    return undefined;
  }
}

interface Status {
  sync_info: { latest_block_height: string; catching_up: boolean };
}

async function height(port: number): Promise<number> {
  const s = await rpc<Status>(port, 'status');
  return s ? Number(s.sync_info.latest_block_height) : -1;
}

async function waitFor(what: string, cond: () => Promise<boolean>, timeoutMs: number, logs?: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${logs ? `\n--- logs ---\n${logs().slice(-4000)}` : ''}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

async function blockHash(port: number, h: number): Promise<string | undefined> {
  const r = await rpc<{ block_id: { hash: string } }>(port, 'block', { height: String(h) });
  return r?.block_id.hash;
}

/** Shorter timeouts, as an operator would edit config.toml for a local network. */
function fastConfig(home: string): void {
  const path = join(home, 'config', 'config.toml');
  const text = readFileSync(path, 'utf8')
    .replace(/^timeout_commit = .*$/m, 'timeout_commit = "200ms"')
    .replace(/^timeout_propose = .*$/m, 'timeout_propose = "1s"')
    .replace(/^timeout_prevote = .*$/m, 'timeout_prevote = "500ms"')
    .replace(/^timeout_precommit = .*$/m, 'timeout_precommit = "500ms"');
  writeFileSync(path, text);
}

describe('a 4-validator network of separate processes on loopback', () => {
  const out = tempHome('tokend-net-');
  const homes = [0, 1, 2, 3].map((i) => join(out, `node${i}`, 'tokend'));
  const rpcPort = (i: number): number => BASE_PORT + 10 * i + 1;
  const apiPort = (i: number): number => BASE_PORT + 10 * i + 2;
  /** id@127.0.0.1:port of each validator, from init-files' output. */
  let addresses: string[] = [];

  it('testnet init-files makes 4 homes with one genesis and every other node as persistent peer', async () => {
    const res = await runCli(['testnet', 'init-files', '--v', '4', '--output-dir', out, '--chain-id', 'e2e-net', '--starting-ip-address', '127.0.0.1', '--base-port', String(BASE_PORT), '-o', 'json'], {
      timeoutMs: 60000,
    });
    expect(res.code).toBe(0);
    const result = JSON.parse(res.stdout) as { chain_id: string; nodes: { node_id: string; p2p: string; home: string }[] };
    expect(result.chain_id).toBe('e2e-net');
    expect(result.nodes.map((n) => n.home)).toEqual(homes);
    addresses = result.nodes.map((n) => n.p2p);
    const genesis = homes.map((h) => readFileSync(join(h, 'config', 'genesis.json'), 'utf8'));
    expect(new Set(genesis).size).toBe(1);
    expect((await runCli(['tendermint', 'show-node-id', '--home', homes[0]!])).stdout.trim()).toBe(result.nodes[0]!.node_id);
    for (let i = 0; i < 4; i++) {
      const config = readFileSync(join(homes[i]!, 'config', 'config.toml'), 'utf8');
      const peers = /^persistent_peers = "(.*)"$/m.exec(config)![1]!.split(',');
      expect(peers.sort()).toEqual(result.nodes.filter((_, j) => j !== i).map((n) => n.p2p).sort());
      fastConfig(homes[i]!);
      // Validators take a state-sync snapshot every 5 blocks.
      const appToml = join(homes[i]!, 'config', 'app.toml');
      writeFileSync(appToml, readFileSync(appToml, 'utf8').replace(/^snapshot-interval = .*$/m, 'snapshot-interval = 5').replace(/^snapshot-keep-recent = .*$/m, 'snapshot-keep-recent = 10'));
    }
  }, 90000);

  let validators: Proc[] = [];

  it('commits blocks; one validator killed does not stop the chain, two halt it, restarting resumes it with no divergent block', async () => {
    validators = homes.map((h) => startHome(h));
    await waitFor('4 validators at height 3', async () => (await Promise.all([0, 1, 2, 3].map((i) => height(rpcPort(i))))).every((h) => h >= 3), 60000, validators[0]!.logs);
    const peers = await rpc<{ n_peers: string }>(rpcPort(0), 'net_info');
    expect(peers?.n_peers).toBe('3');

    await kill9(validators[3]!);
    const afterOne = await height(rpcPort(0));
    await waitFor('3 of 4 validators keep committing', async () => (await height(rpcPort(0))) >= afterOne + 3, 30000, validators[0]!.logs);

    await kill9(validators[2]!);
    // Half the power is gone: once the height in progress is over, no block is committed.
    await new Promise((r) => setTimeout(r, 1500));
    const halted = await height(rpcPort(0));
    await new Promise((r) => setTimeout(r, 2500));
    expect(await height(rpcPort(0))).toBe(halted);
    expect(await height(rpcPort(1))).toBe(halted);

    validators[2] = startHome(homes[2]!);
    validators[3] = startHome(homes[3]!);
    await waitFor('the chain resumes on all 4', async () => (await Promise.all([0, 1, 2, 3].map((i) => height(rpcPort(i))))).every((h) => h >= halted + 3), 60000, validators[2]!.logs);
    const top = Math.min(...(await Promise.all([0, 1, 2, 3].map((i) => height(rpcPort(i))))));
    for (let h = 1; h <= top; h++) {
      const hashes = await Promise.all([0, 1, 2, 3].map((i) => blockHash(rpcPort(i), h)));
      expect(new Set(hashes).size).toBe(1);
      expect(hashes[0]).toMatch(/^[0-9A-F]{64}$/);
    }
  }, 150000);

  it('a full node with only persistent_peers catches up by block sync, follows, and relays txs to the validators', async () => {
    const full = tempHome('tokend-full-');
    expect((await runCli(['init', 'full', '--chain-id', 'e2e-net', '--home', full])).code).toBe(0);
    writeFileSync(join(full, 'config', 'genesis.json'), readFileSync(join(homes[0]!, 'config', 'genesis.json')));
    fastConfig(full);
    const proc = startHome(full, [
      '--p2p.laddr',
      `tcp://127.0.0.1:${FULL_NODE_PORTS.p2p}`,
      '--p2p.persistent_peers',
      addresses[0]!,
      '--rpc.laddr',
      `tcp://127.0.0.1:${FULL_NODE_PORTS.rpc}`,
      '--api.address',
      `tcp://127.0.0.1:${FULL_NODE_PORTS.api}`,
      '--grpc.address',
      `127.0.0.1:${FULL_NODE_PORTS.grpc}`,
      '--json-rpc.address',
      `127.0.0.1:${FULL_NODE_PORTS.jsonRpc}`,
      '--json-rpc.ws-address',
      `127.0.0.1:${FULL_NODE_PORTS.jsonRpcWs}`,
    ]);
    const target = await height(rpcPort(0));
    await waitFor('the full node catches up', async () => {
      const s = await rpc<Status>(FULL_NODE_PORTS.rpc, 'status');
      return s !== undefined && !s.sync_info.catching_up && Number(s.sync_info.latest_block_height) >= target;
    }, 60000, proc.logs);
    expect(proc.logs()).toMatch(/time to switch to consensus/);
    // It follows: new blocks keep arriving, identical to the validators'.
    const now = await height(FULL_NODE_PORTS.rpc);
    await waitFor('the full node follows', async () => (await height(FULL_NODE_PORTS.rpc)) >= now + 2, 30000, proc.logs);
    expect(await blockHash(FULL_NODE_PORTS.rpc, now)).toBe(await blockHash(rpcPort(1), now));

    // A tx signed with node0's account key, sent only to the full node.
    const recipient = JSON.parse((await runCli(['keys', 'add', 'rcpt', '--keyring-backend', 'test', '--home', full, '-o', 'json'])).stdout).address as string;
    const sent = await runCli(
      ['tx', 'send', 'node0', recipient, '777attotoken', '--fees', '200000attotoken', '--chain-id', 'e2e-net', '--keyring-backend', 'test', '--home', homes[0]!, '--node', `tcp://127.0.0.1:${FULL_NODE_PORTS.rpc}`, '--yes', '-b', 'sync', '-o', 'json'],
      { timeoutMs: 30000 },
    );
    expect(sent.code).toBe(0);
    expect(JSON.parse(sent.stdout).code).toBe(0);
    await waitFor('the validators include the tx', async () => {
      try {
        const res = await fetch(`http://127.0.0.1:${apiPort(2)}/cosmos/bank/v1beta1/balances/${recipient}`, { signal: AbortSignal.timeout(3000) });
        return JSON.stringify(await res.json()).includes('"777"');
      } catch {
        return false;
      }
    }, 30000, proc.logs);
  }, 150000);

  it('a validator key run by two processes at once produces duplicate-vote evidence that is committed on chain', async () => {
    const twin = tempHome('tokend-twin-');
    expect((await runCli(['init', 'twin', '--chain-id', 'e2e-net', '--home', twin])).code).toBe(0);
    writeFileSync(join(twin, 'config', 'genesis.json'), readFileSync(join(homes[0]!, 'config', 'genesis.json')));
    // The same validator key as node3, a fresh sign state and its own node key.
    writeFileSync(join(twin, 'config', 'priv_validator_key.json'), readFileSync(join(homes[3]!, 'config', 'priv_validator_key.json')));
    fastConfig(twin);
    // It gives up on proposals at once, so it prevotes nil where node3 prevotes the block.
    const config = join(twin, 'config', 'config.toml');
    writeFileSync(config, readFileSync(config, 'utf8').replace(/^timeout_propose = .*$/m, 'timeout_propose = "1ms"').replace(/^timeout_propose_delta = .*$/m, 'timeout_propose_delta = "0s"'));
    const peers = addresses.join(',');
    const address = (await runCli(['tendermint', 'show-address', '--home', homes[3]!, '-o', 'json'])).stdout;
    const proc = startHome(twin, [
      '--p2p.laddr',
      `tcp://127.0.0.1:${TWIN_PORTS.p2p}`,
      '--p2p.persistent_peers',
      peers,
      '--rpc.laddr',
      `tcp://127.0.0.1:${TWIN_PORTS.rpc}`,
      '--api.address',
      `tcp://127.0.0.1:${TWIN_PORTS.api}`,
      '--grpc.address',
      `127.0.0.1:${TWIN_PORTS.grpc}`,
      '--json-rpc.address',
      `127.0.0.1:${TWIN_PORTS.jsonRpc}`,
      '--json-rpc.ws-address',
      `127.0.0.1:${TWIN_PORTS.jsonRpcWs}`,
    ]);
    const from = await height(rpcPort(0));
    type EvidenceJson = { type: string; value: { vote_a: { validator_address: string; height: string }; vote_b: { block_id: unknown } } };
    let found = undefined as { height: number; evidence: EvidenceJson[] } | undefined;
    let scanned = from;
    await waitFor('a block with duplicate-vote evidence', async () => {
      const top = await height(rpcPort(0));
      for (; scanned <= top && !found; scanned++) {
        const block = await rpc<{ block: { evidence: { evidence: EvidenceJson[] } } }>(rpcPort(0), 'block', { height: String(scanned) });
        if (block && block.block.evidence.evidence.length > 0) found = { height: scanned, evidence: block.block.evidence.evidence };
      }
      return found !== undefined;
    }, 60000, proc.logs);
    const ev = found!.evidence[0]!;
    expect(ev.type).toBe('tendermint/DuplicateVoteEvidence');
    // The equivocating validator is node3's key (hex of its consensus address).
    const node3 = (await rpc<{ validator_info: { address: string } }>(rpcPort(3), 'status'))!.validator_info.address;
    expect(ev.value.vote_a.validator_address).toBe(node3);
    expect(address).toContain('tokenvalcons1');
    // Every validator has the same block (the evidence is on chain, not just in one node's view).
    const hashes = await Promise.all([0, 1, 2].map((i) => blockHash(rpcPort(i), found!.height)));
    expect(new Set(hashes).size).toBe(1);
  }, 120000);

  it('a node joins by state sync from a verified snapshot; a wrong trust_hash refuses the start and writes nothing', async () => {
    const trustHeight = Math.max(1, (await height(rpcPort(0))) - 2);
    const trustHash = (await blockHash(rpcPort(0), trustHeight))!;
    const prepare = async (hash: string): Promise<string> => {
      const home = tempHome('tokend-ss-');
      expect((await runCli(['init', 'statesync', '--chain-id', 'e2e-net', '--home', home])).code).toBe(0);
      writeFileSync(join(home, 'config', 'genesis.json'), readFileSync(join(homes[0]!, 'config', 'genesis.json')));
      fastConfig(home);
      const path = join(home, 'config', 'config.toml');
      const text = readFileSync(path, 'utf8')
        .replace(/(\[statesync\][^[]*?)enable = false/, '$1enable = true')
        .replace(/^rpc_servers = .*$/m, `rpc_servers = "http://127.0.0.1:${rpcPort(0)},http://127.0.0.1:${rpcPort(1)}"`)
        .replace(/^trust_height = .*$/m, `trust_height = ${trustHeight}`)
        .replace(/^trust_hash = .*$/m, `trust_hash = "${hash}"`)
        .replace(/^discovery_time = .*$/m, 'discovery_time = "2s"');
      writeFileSync(path, text);
      return home;
    };
    const args = (home: string): string[] => [
      'start',
      '--home',
      home,
      '--p2p.laddr',
      `tcp://127.0.0.1:${SYNC_PORTS.p2p}`,
      '--p2p.persistent_peers',
      addresses[0]!,
      '--rpc.laddr',
      `tcp://127.0.0.1:${SYNC_PORTS.rpc}`,
      '--api.address',
      `tcp://127.0.0.1:${SYNC_PORTS.api}`,
      '--grpc.address',
      `127.0.0.1:${SYNC_PORTS.grpc}`,
      '--json-rpc.address',
      `127.0.0.1:${SYNC_PORTS.jsonRpc}`,
      '--json-rpc.ws-address',
      `127.0.0.1:${SYNC_PORTS.jsonRpcWs}`,
    ];

    // A trust_hash that is not the block's: refused, one line, nothing written.
    const wrongHome = await prepare('AB'.repeat(32));
    const refused = await runCli(args(wrongHome), { timeoutMs: 60000 });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(new RegExp(`Error: statesync trust_hash (AB)+ does not match the header at trust_height ${trustHeight}`));
    const { openDatabase } = await import('../../src/node/store/db/database.js');
    const { StateStore } = await import('../../src/node/consensus/store/stateStore.js');
    const { BlockStore } = await import('../../src/node/consensus/store/blockStore.js');
    const db = await openDatabase(join(wrongHome, 'data', 'tokend.db'));
    try {
      expect(new StateStore(db).load()).toBeUndefined();
      expect(new BlockStore(db).height()).toBe(0);
      // Only the store-name registry the state store writes when it opens; no state, block or index.
      const written: string[] = [];
      for await (const key of db.keys()) if (key[0] !== 0x01) written.push(Buffer.from(key).toString('hex'));
      expect(written).toEqual([]);
    } finally {
      await db.close();
    }

    // The right hash: restored from a snapshot, then block sync, then it follows.
    const home = await prepare(trustHash);
    const proc = startHome(home, args(home).slice(3));
    const target = await height(rpcPort(0));
    await waitFor('the state-synced node catches up', async () => {
      const s = await rpc<Status & { sync_info: { earliest_block_height: string } }>(SYNC_PORTS.rpc, 'status');
      return s !== undefined && !s.sync_info.catching_up && Number(s.sync_info.latest_block_height) >= target;
    }, 60000, proc.logs);
    expect(proc.logs()).toMatch(/restored state snapshot/);
    expect(proc.logs()).toMatch(/state sync complete/);
    const s = (await rpc<{ sync_info: { earliest_block_height: string; latest_block_height: string } }>(SYNC_PORTS.rpc, 'status'))!;
    // It never had the early blocks: its first block is the one after the snapshot.
    expect(Number(s.sync_info.earliest_block_height)).toBeGreaterThan(trustHeight);
    const h = Number(s.sync_info.latest_block_height);
    expect(await blockHash(SYNC_PORTS.rpc, h)).toBe(await blockHash(rpcPort(1), h));
    // A block it lacks (before the snapshot) is fetched from peers, verified down the header chain.
    expect(await blockHash(SYNC_PORTS.rpc, trustHeight)).toBe(trustHash);
  }, 150000);
});
