/**
 * End-to-end, with the real binary: the state commitment as a light client sees it.
 *
 *  - `abci_query /store/bank/key prove=true` over the consensus RPC, at the latest and at older
 *    heights, for keys that exist (bank balances found with /store/bank/subspace) and keys that
 *    do not: exactly two proof ops (`ics23:iavl` keyed by the query key, `ics23:simple` keyed by
 *    the store name), a non-zero response height, verified with @confio/ics23 against the
 *    app_hash in the block header at height+1 (what an IBC light client does).
 *  - kill -9 at random points while txs are being sent, three times: every restart resumes, and
 *    for the heights around each crash the committed store roots (the proofs' roots) are the
 *    ones in the block headers.
 */
import { jest } from '@jest/globals';
import { join } from 'node:path';
import { Bucket } from '../../src/node/store/db/buckets.js';
import { openDatabase } from '../../src/node/store/db/database.js';
import { runCli, cliOk as ok } from '../helpers/cli.js';
import { validatorHome } from '../helpers/genesisTemplate.js';
import { proofSaysExists, verifyStoreProof } from '../helpers/ics23.js';
import { fastBlocks, startOnFreePorts, stopNode, type BackgroundNode } from '../helpers/node.js';

jest.setTimeout(240_000);

const KB = ['--keyring-backend', 'test'];


function rpcUrl(node: string): string {
  return node.replace(/^tcp:/, 'http:');
}

async function rpc<T>(node: string, method: string, params: Record<string, unknown>): Promise<T> {
  const response = await fetch(rpcUrl(node), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await response.json()) as { result?: T; error?: { message: string; data?: string } };
  if (body.result === undefined) throw new Error(`${method}: ${body.error?.message} ${body.error?.data ?? ''}`);
  return body.result;
}

interface AbciQuery {
  response: { code: number; log: string; key: string | null; value: string | null; height: string; proofOps: { ops: { type: string; key: string; data: string }[] } | null };
}

const b64 = (text: string | null): Uint8Array => Buffer.from(text ?? '', 'base64');

/** Latest block height over the RPC (undefined while the node is not answering). */
async function latestHeight(node: string): Promise<number | undefined> {
  try {
    const result = await rpc<{ sync_info: { latest_block_height: string } }>(node, 'status', {});
    return Number(result.sync_info.latest_block_height);
  } catch {
    return undefined;
  }
}

async function waitForHeight(node: string, height: number, timeoutMs = 60000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const current = await latestHeight(node);
    if (current !== undefined && current >= height) return current;
    if (Date.now() > deadline) throw new Error(`node ${node} did not reach height ${height} (at ${current ?? 'unreachable'})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function appHashInHeader(node: string, height: number): Promise<Uint8Array> {
  const block = await rpc<{ block: { header: { app_hash: string } } }>(node, 'block', { height: String(height) });
  return Buffer.from(block.block.header.app_hash, 'hex');
}

/** cosmos.base.kv.v1beta1.Pairs → keys (field 1 of each Pair). */
function pairKeys(bytes: Uint8Array): Uint8Array[] {
  const keys: Uint8Array[] = [];
  const varint = (at: { o: number }): number => {
    let result = 0;
    let scale = 1;
    for (;;) {
      const b = bytes[at.o++]!;
      result += (b & 0x7f) * scale;
      if (b < 0x80) return result;
      scale *= 128;
    }
  };
  const at = { o: 0 };
  while (at.o < bytes.length) {
    at.o++; // tag 0x0a (pairs)
    const end = varint(at) + at.o;
    at.o++; // tag 0x0a (key)
    const keyLength = varint(at);
    keys.push(bytes.slice(at.o, at.o + keyLength));
    at.o = end;
  }
  return keys;
}

/** Prove every given key at `height` over the RPC and verify against the header at height+1. */
async function checkProofsAt(node: string, height: number, keys: Uint8Array[]): Promise<{ present: number; absent: number }> {
  const appHash = await appHashInHeader(node, height + 1);
  let present = 0;
  let absent = 0;
  for (const key of keys) {
    const { response } = await rpc<AbciQuery>(node, 'abci_query', { path: '/store/bank/key', data: Buffer.from(key).toString('hex'), height: String(height), prove: true });
    expect(response.code).toBe(0);
    expect(Number(response.height)).toBe(height);
    expect(Buffer.from(b64(response.key)).equals(Buffer.from(key))).toBe(true);
    const ops = response.proofOps!.ops.map((op) => ({ type: op.type, key: b64(op.key), data: b64(op.data) }));
    expect(ops.map((op) => op.type)).toEqual(['ics23:iavl', 'ics23:simple']);
    // The bank's denom-owner index stores empty values (as the SDK's collections do). ICS23 has
    // no leaf for an empty value (@confio/ics23 and the Go library both refuse one), so such a
    // key — present, as its existence proof says — cannot be verified by any client; skip it.
    const raw = response.value === null || response.value === undefined ? new Uint8Array(0) : b64(response.value);
    if (raw.length === 0 && proofSaysExists(ops[0]!.data)) continue;
    const value = raw.length > 0 ? raw : undefined;
    if (!verifyStoreProof(ops, appHash, 'bank', key, value)) throw new Error(`proof of ${Buffer.from(key).toString('hex')} at height ${height} does not verify against the app hash of header ${height + 1}`);
    if (value === undefined) absent++;
    else present++;
  }
  return { present, absent };
}

async function bankKeys(node: string, height: number): Promise<Uint8Array[]> {
  const { response } = await rpc<AbciQuery>(node, 'abci_query', { path: '/store/bank/subspace', data: '', height: String(height), prove: false });
  expect(response.code).toBe(0);
  return pairKeys(b64(response.value)).slice(0, 6);
}

describe('state commitment end to end', () => {
  const running: BackgroundNode[] = [];
  afterAll(async () => {
    for (const bg of running) await stopNode(bg, 'SIGKILL');
  });

  test('ICS23 proofs over the RPC verify against block headers; kill -9 under load never breaks that', async () => {
    // alice funded and bonded by a collected gentx: the shared template (test/helpers/genesisTemplate.ts).
    const home = await validatorHome('tokend-commitment-');
    const h = ['--home', home];
    fastBlocks(home);
    const bob = JSON.parse(await ok(['keys', 'add', 'bob', ...KB, ...h, '-o', 'json'])).address as string;

    let bg = await startOnFreePorts(home, 1, [], 60_000);
    running.push(bg);
    await waitForHeight(bg.node, 2);

    const send = (amount: number): Promise<unknown> =>
      runCli(['tx', 'send', 'alice', bob, `${amount}attotoken`, '--fees', '200000attotoken', '--chain-id', 'testnet', '--yes', '-b', 'sync', '--node', bg.node, ...KB, ...h, '-o', 'json'], { timeoutMs: 30000 });
    await send(1);
    await waitForHeight(bg.node, 4);

    // Proofs at the latest height and older ones, for balances that exist and keys that do not.
    const latest = (await latestHeight(bg.node))! - 1; // the header at latest+1 must exist
    const keys = await bankKeys(bg.node, latest);
    expect(keys.length).toBeGreaterThan(0);
    const probes = [...keys, Uint8Array.of(0x00), Uint8Array.of(0xff, 0xff, 0xff), Buffer.from('no-such-key')];
    for (const height of [latest, latest - 1, 2]) {
      const counted = await checkProofsAt(bg.node, height, height === latest ? probes : [...(await bankKeys(bg.node, height)), Uint8Array.of(0x00)]);
      expect(counted.present).toBeGreaterThan(0);
      expect(counted.absent).toBeGreaterThan(0);
    }
    // Bad requests: one clear error, the node keeps serving.
    const unknown = await rpc<AbciQuery>(bg.node, 'abci_query', { path: '/store/nope/key', data: '01', prove: true });
    expect(unknown.response.code).not.toBe(0);
    expect(unknown.response.log).toMatch(/no such store: nope/);
    const future = await rpc<AbciQuery>(bg.node, 'abci_query', { path: '/store/bank/key', data: '01', height: String(latest + 1000), prove: true });
    expect(future.response.code).not.toBe(0);
    expect(future.response.log).toMatch(/cannot query with height in the future/);
    const empty = await rpc<AbciQuery>(bg.node, 'abci_query', { path: '/store/bank/key', data: '', prove: true });
    expect(empty.response.log).toMatch(/query cannot be zero length/);

    // kill -9 at random points under load, three times.
    let random = 7;
    const next = (): number => (random = (random * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let round = 0; round < 3; round++) {
      const start = (await latestHeight(bg.node))!;
      const load = (async () => {
        for (let i = 0; i < 2; i++) await send(1000 + i).catch(() => undefined);
      })();
      await waitForHeight(bg.node, start + 1 + Math.floor(next() * 3));
      bg.child.kill('SIGKILL');
      await bg.exited;
      await load;
      bg = await startOnFreePorts(home, 1, [], 60_000);
      running.push(bg);
      const resumed = await waitForHeight(bg.node, start + 1);
      await waitForHeight(bg.node, resumed + 2);
      const top = (await latestHeight(bg.node))! - 1;
      for (let height = Math.max(2, top - 2); height <= top; height++) {
        const counted = await checkProofsAt(bg.node, height, [...(await bankKeys(bg.node, height)), Uint8Array.of(0x00)]);
        expect(counted.present).toBeGreaterThan(0);
      }
    }
    expect(await stopNode(bg, 'SIGTERM')).toBe(0);

    // Damaged tree records (the latest version's nodes lost): the node refuses to start and
    // says which store and version.
    const db = await openDatabase(join(home, 'data', 'tokend.db'));
    const chunks: Uint8Array[] = [];
    let newestVersion = -1;
    for await (const key of db.keys({ gte: Uint8Array.of(Bucket.stateNode), lt: Uint8Array.of(Bucket.stateNode + 1) })) {
      const version = Number(Buffer.from(key.subarray(2, 10)).readBigUInt64BE());
      if (version > newestVersion) {
        newestVersion = version;
        chunks.length = 0;
      }
      if (version === newestVersion) chunks.push(key);
    }
    expect(chunks.length).toBeGreaterThan(0);
    for (const key of chunks) await db.del(key);
    await db.close();
    const refused = await runCli(['start', '--home', home, '--rpc.laddr', 'tcp://127.0.0.1:0', '--api.address', 'tcp://127.0.0.1:0', '--grpc.address', '127.0.0.1:0'], { timeoutMs: 60000 });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(new RegExp(`store \\w+: tree nodes of version ${newestVersion} are missing`));
  });
});
