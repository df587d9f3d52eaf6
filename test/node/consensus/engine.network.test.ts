import { afterEach, describe, expect, it } from '@jest/globals';
import { BlockIdFlag, hashBlock } from '../../../src/node/consensus/types/block.js';
import { toHexUpper } from '../../../src/node/consensus/types/bytes.js';
import { FilePV } from '../../../src/node/consensus/privval.js';
import { MemoryNetwork } from '../../../src/node/p2p/index.js';
import { generateNodeKey } from '../../../src/node/consensus/privval.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeGenesis, makeNode, memoryP2P, recordingLogger, utf8, waitForHeight, type TestNode } from './helpers.js';

const running: TestNode[] = [];
afterEach(async () => {
  for (const n of running.splice(0)) await n.stop();
});

async function makeNetwork(count: number, started: number): Promise<{ nodes: TestNode[]; network: MemoryNetwork }> {
  const pvs = Array.from({ length: count }, () => FilePV.generate());
  const genesis = makeGenesis(pvs);
  const network = new MemoryNetwork();
  const keys = pvs.map(() => generateNodeKey());
  const nodes: TestNode[] = [];
  for (let i = 0; i < count; i++) nodes.push(await makeNode(genesis, pvs[i]!, { p2p: memoryP2P(network, keys, i) }));
  for (let i = 0; i < started; i++) {
    running.push(nodes[i]!);
    await nodes[i]!.start();
  }
  return { nodes, network };
}

function assertSameChain(nodes: TestNode[], upTo: number): void {
  for (let h = 1; h <= upTo; h++) {
    const hashes = new Set(nodes.map((n) => toHexUpper(n.consensus.blockStore.loadBlockMeta(h)!.blockId.hash)));
    expect(hashes.size).toBe(1);
    const appHashes = new Set(nodes.map((n) => toHexUpper(n.consensus.stateStore.loadFinalizeBlockResponse(h)!.appHash)));
    expect(appHashes.size).toBe(1);
  }
}

describe('four validators over an in-memory transport', () => {
  it('reach consensus: same blocks everywhere, proposers rotate, commits carry +2/3', async () => {
    const { nodes } = await makeNetwork(4, 4);
    await nodes[1]!.consensus.mempool.checkTx(utf8('from=node1'));
    await nodes[3]!.consensus.mempool.checkTx(utf8('from=node3'));
    await Promise.all(nodes.map((n) => waitForHeight(n.consensus, 8, 30000)));
    assertSameChain(nodes, 8);

    const store = nodes[0]!.consensus.blockStore;
    const proposers = new Set<string>();
    for (let h = 2; h <= 8; h++) {
      const block = store.loadBlock(h)!;
      proposers.add(toHexUpper(block.header.proposerAddress));
      const signed = block.lastCommit.signatures.filter((s) => s.blockIdFlag === BlockIdFlag.Commit).length;
      expect(signed).toBeGreaterThanOrEqual(3); // +2/3 of 4 equal powers
      expect(block.lastCommit.signatures).toHaveLength(4);
    }
    expect(proposers.size).toBeGreaterThanOrEqual(3);
    // Both txs made it into the chain (each when its node proposed), and every app has them.
    for (const n of nodes) {
      expect(n.app.committed.state.get('from')).toBeDefined();
    }
    const allTxs: string[] = [];
    for (let h = 1; h <= store.height(); h++) allTxs.push(...store.loadBlock(h)!.data.txs.map((t) => new TextDecoder().decode(t)));
    expect(allTxs).toEqual(expect.arrayContaining(['from=node1', 'from=node3']));
  }, 60000);

  it('keeps committing with one of four validators offline (3 of 4 = 75% > 2/3)', async () => {
    const { nodes } = await makeNetwork(4, 3);
    const live = nodes.slice(0, 3);
    await Promise.all(live.map((n) => waitForHeight(n.consensus, 6, 40000)));
    assertSameChain(live, 6);
    const offlineAddress = toHexUpper(nodes[3]!.pv.address);
    for (let h = 2; h <= 6; h++) {
      const block = live[0]!.consensus.blockStore.loadBlock(h)!;
      expect(toHexUpper(block.header.proposerAddress)).not.toBe(offlineAddress);
      // The offline validator's slot in every commit is absent.
      const vals = live[0]!.consensus.stateStore.loadValidators(h - 1)!;
      const [idx] = vals.getByAddress(nodes[3]!.pv.address);
      expect(block.lastCommit.signatures[idx]!.blockIdFlag).toBe(BlockIdFlag.Absent);
    }
    expect(nodes[3]!.consensus.blockStore.height()).toBe(0);
  }, 60000);

  it('a validator that starts late catches up from its peers and joins', async () => {
    const { nodes } = await makeNetwork(4, 3);
    await Promise.all(nodes.slice(0, 3).map((n) => waitForHeight(n.consensus, 4, 40000)));
    const late = nodes[3]!;
    running.push(late);
    await late.start();
    const target = nodes[0]!.consensus.blockStore.height() + 3;
    await Promise.all(nodes.map((n) => waitForHeight(n.consensus, target, 40000)));
    assertSameChain(nodes, target);
    expect(toHexUpper(hashBlock(late.consensus.blockStore.loadBlock(target)!))).toBe(toHexUpper(nodes[0]!.consensus.blockStore.loadBlockMeta(target)!.blockId.hash));
    // Once caught up it votes again: a later commit carries its signature.
    await Promise.all(nodes.slice(0, 3).map((n) => waitForHeight(n.consensus, target + 3, 40000)));
    const vals = nodes[0]!.consensus.stateStore.loadValidators(target + 1)!;
    const [idx] = vals.getByAddress(late.pv.address);
    const signedByLate = [target + 2, target + 3].some((h) => nodes[0]!.consensus.blockStore.loadBlock(h)!.lastCommit.signatures[idx]!.blockIdFlag === BlockIdFlag.Commit);
    expect(signedByLate).toBe(true);
  }, 90000);

  it('a validator crashed mid-height (rounds without a decision) resumes from its WAL without double-sign refusals', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tokend-crash-'));
    try {
      const keyFile = join(dir, 'key.json');
      const stateFile = join(dir, 'state.json');
      const pvs = [FilePV.generate({ keyFile, stateFile }), FilePV.generate(), FilePV.generate(), FilePV.generate()];
      const genesis = makeGenesis(pvs);
      const network = new MemoryNetwork();
      const keys = pvs.map(() => generateNodeKey());
      const walFile = join(dir, 'cs.wal', 'wal');
      const nodes: TestNode[] = [];
      nodes.push(await makeNode(genesis, pvs[0]!, { p2p: memoryP2P(network, keys, 0), options: { walFile } }));
      for (let i = 1; i < 4; i++) nodes.push(await makeNode(genesis, pvs[i]!, { p2p: memoryP2P(network, keys, i) }));
      for (const n of nodes) await n.start();
      running.push(...nodes.slice(1));
      await Promise.all(nodes.map((n) => waitForHeight(n.consensus, 2, 30000)));
      // Three validators reject every proposal: +2/3 prevote nil, rounds pass without a decision
      // while node0 keeps prevoting the proposed blocks.
      for (const n of nodes.slice(1)) n.app.rejectProposals = true;
      // Until node0 has moved past round 0 and signed there (its state file says so).
      const deadline = Date.now() + 30_000;
      while (!(nodes[0]!.consensus.roundState()!.round > 0 && FilePV.load(keyFile, stateFile).lastSignState.round > 0)) {
        if (Date.now() > deadline) throw new Error('node0 never left round 0 while the others rejected proposals');
        await new Promise((r) => setTimeout(r, 50));
      }
      const stuckAt = nodes[0]!.consensus.roundState()!;
      expect(stuckAt.round).toBeGreaterThan(0);
      const signedRound = FilePV.load(keyFile, stateFile).lastSignState.round;
      expect(signedRound).toBeGreaterThan(0);
      await nodes[0]!.stop(); // "crash"

      const logger = recordingLogger();
      const pv0 = FilePV.load(keyFile, stateFile);
      const restarted = await makeNode(genesis, pv0, { db: nodes[0]!.db, app: nodes[0]!.app, p2p: memoryP2P(network, keys, 0), options: { walFile }, logger });
      running.push(restarted);
      await restarted.start();
      // The WAL brought it back to the round it had reached (not round 0).
      expect(restarted.consensus.roundState()!.height).toBe(stuckAt.height);
      expect(restarted.consensus.roundState()!.round).toBeGreaterThanOrEqual(signedRound);
      for (const n of nodes.slice(1)) n.app.rejectProposals = false;
      const target = stuckAt.height + 2;
      await Promise.all([restarted, nodes[1]!].map((n) => waitForHeight(n.consensus, target, 40000)));
      expect(logger.entries.filter((e) => e.level === 'error' && /failed signing|conflicting/.test(e.msg))).toEqual([]);
      expect(restarted.consensus.failure).toBeUndefined();
      expect(toHexUpper(restarted.consensus.blockStore.loadBlockMeta(target)!.blockId.hash)).toBe(toHexUpper(nodes[1]!.consensus.blockStore.loadBlockMeta(target)!.blockId.hash));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90000);

  it('a validator key run by two nodes at once: duplicate-vote evidence is detected, gossiped, committed and handed to the app', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tokend-twin-'));
    const keyFile = join(dir, 'priv_validator_key.json');
    const pvs = [FilePV.generate(), FilePV.generate(), FilePV.generate(), FilePV.generate({ keyFile, stateFile: join(dir, 'state-a.json') })];
    const genesis = makeGenesis(pvs);
    const network = new MemoryNetwork();
    const keys = Array.from({ length: 5 }, () => generateNodeKey());
    const nodes: TestNode[] = [];
    for (let i = 0; i < 4; i++) nodes.push(await makeNode(genesis, pvs[i]!, { p2p: memoryP2P(network, keys, i) }));
    // The twin signs with validator 3's key from its own (fresh) sign state; it gives up on
    // proposals almost at once, so it prevotes nil where the original prevotes the block.
    const twinPv = FilePV.load(keyFile, join(dir, 'state-b.json'));
    const twin = await makeNode(genesis, twinPv, { p2p: memoryP2P(network, keys, 4), options: { timeoutProposeMs: 1, timeoutProposeDeltaMs: 0 } });
    for (const n of [...nodes, twin]) {
      running.push(n);
      await n.start();
    }
    const equivocator = toHexUpper(pvs[3]!.address);
    const deadline = Date.now() + 40000;
    let evidenceHeight = 0;
    while (Date.now() < deadline && evidenceHeight === 0) {
      await new Promise((r) => setTimeout(r, 200));
      const store = nodes[0]!.consensus.blockStore;
      for (let h = 1; h <= store.height(); h++) {
        if (store.loadBlock(h)!.evidence.length > 0) {
          evidenceHeight = h;
          break;
        }
      }
    }
    expect(evidenceHeight).toBeGreaterThan(0);
    await Promise.all(nodes.map((n) => waitForHeight(n.consensus, evidenceHeight, 30000)));
    // Every honest app saw the misbehavior of validator 3 in FinalizeBlock of that block.
    for (const n of nodes) {
      const seen = n.app.misbehavior.find((m) => m.height === evidenceHeight);
      expect(seen).toBeDefined();
      expect(seen!.items[0]!.type).toBe('duplicate_vote');
      expect(toHexUpper(seen!.items[0]!.validatorAddress)).toBe(equivocator);
      expect(seen!.items[0]!.power).toBe(10n);
      expect(seen!.items[0]!.totalVotingPower).toBe(40n);
    }
    // Committed evidence is not pending any more (never included twice).
    await Promise.all(nodes.map((n) => waitForHeight(n.consensus, evidenceHeight + 2, 30000)));
    const store = nodes[0]!.consensus.blockStore;
    const included = [];
    for (let h = 1; h <= store.height(); h++) included.push(...store.loadBlock(h)!.evidence.map((e) => Buffer.from(e).toString('hex')));
    expect(new Set(included).size).toBe(included.length);
    rmSync(dir, { recursive: true, force: true });
  }, 90000);
});
