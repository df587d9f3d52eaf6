import { afterEach, describe, expect, it } from '@jest/globals';
import { BlockIdFlag, blockIdsEqual, hashBlock, hashTxs, txHash } from '../../../src/node/consensus/types/block.js';
import { EMPTY_HASH } from '../../../src/node/consensus/types/merkle.js';
import { bytesEqual, toHexUpper } from '../../../src/node/consensus/types/bytes.js';
import { FilePV } from '../../../src/node/consensus/privval.js';
import { MemoryWAL, type WalMessage } from '../../../src/node/consensus/state/wal.js';
import { yieldToEventLoop } from '../../../src/util/slices.js';
import type { Mempool } from '../../../src/node/consensus/mempool/mempool.js';
import { KvApp, makeGenesis, makeNode, utf8, waitForHeight, type KvSnapshot, type TestNode } from './helpers.js';
import { StateStore } from '../../../src/node/consensus/store/stateStore.js';
import type { ChainState } from '../../../src/node/consensus/state/chainState.js';

const running: TestNode[] = [];
afterEach(async () => {
  for (const n of running.splice(0)) await n.stop();
});

describe('engine with one validator', () => {
  it('produces blocks with correct last_commit, data hash and app hash of H in header H+1', async () => {
    const pv = FilePV.generate();
    const genesis = makeGenesis([pv]);
    const node = await makeNode(genesis, pv);
    running.push(node);
    const txEvents: string[] = [];
    node.consensus.eventBus.on('Tx', (data, events) => txEvents.push(`${data.height}:${events['tx.hash']![0]}`));
    await node.consensus.start();
    expect(node.app.initChainCount).toBe(1);

    await waitForHeight(node.consensus, 2);
    const txs = ['a=1', 'b=2', 'c=3'].map(utf8);
    const waiters = txs.map((tx) => node.consensus.eventBus.waitForTx(toHexUpper(txHash(tx)), 10000));
    for (const tx of txs) expect((await node.consensus.mempool.checkTx(tx)).code).toBe(0);
    await expect(node.consensus.mempool.checkTx(txs[0]!)).rejects.toThrow('tx already exists in cache');
    const included = await Promise.all(waiters.map((w) => w.promise));
    await waitForHeight(node.consensus, included[0]!.height + 2);

    const store = node.consensus.blockStore;
    const top = store.height();
    expect(store.base()).toBe(1);
    for (let h = 1; h <= top; h++) {
      const block = store.loadBlock(h)!;
      const meta = store.loadBlockMeta(h)!;
      expect(block.header.height).toBe(h);
      expect(bytesEqual(hashBlock(block), meta.blockId.hash)).toBe(true);
      expect(bytesEqual(block.header.dataHash, hashTxs(block.data.txs))).toBe(true);
      expect(store.loadBlockByHash(meta.blockId.hash)?.header.height).toBe(h);
      if (h === 1) {
        expect(block.lastCommit.height).toBe(0);
        expect(block.lastCommit.signatures).toHaveLength(0);
        expect(bytesEqual(block.header.lastCommitHash, EMPTY_HASH)).toBe(true);
        expect(block.header.lastBlockId.partSetHeader.total).toBe(0);
      } else {
        const prev = store.loadBlockMeta(h - 1)!;
        expect(block.lastCommit.height).toBe(h - 1);
        expect(blockIdsEqual(block.lastCommit.blockId, prev.blockId)).toBe(true);
        expect(blockIdsEqual(block.header.lastBlockId, prev.blockId)).toBe(true);
        expect(block.lastCommit.signatures).toHaveLength(1);
        expect(block.lastCommit.signatures[0]!.blockIdFlag).toBe(BlockIdFlag.Commit);
        expect(bytesEqual(block.lastCommit.signatures[0]!.validatorAddress, pv.address)).toBe(true);
        // The commit verifies against the validator set of h-1.
        const vals = node.consensus.stateStore.loadValidators(h - 1)!;
        expect(() => vals.verifyCommit(genesis.chainId, prev.blockId, h - 1, block.lastCommit)).not.toThrow();
        // App hash of height h-1 (FinalizeBlock response) appears in header h.
        const prevResponse = node.consensus.stateStore.loadFinalizeBlockResponse(h - 1)!;
        expect(toHexUpper(block.header.appHash)).toBe(toHexUpper(prevResponse.appHash));
        expect(block.header.time.seconds * 1e9 + block.header.time.nanos).toBeGreaterThan(prev.header.time.seconds * 1e9 + prev.header.time.nanos);
      }
    }
    // The txs were included where the events said, in one block, in submission order.
    const h = included[0]!.height;
    const block = store.loadBlock(h)!;
    expect(block.data.txs.map((t) => new TextDecoder().decode(t))).toEqual(['a=1', 'b=2', 'c=3']);
    expect(included.map((e) => e.index)).toEqual([0, 1, 2]);
    expect(txEvents).toHaveLength(3);
    expect(node.consensus.stateStore.loadFinalizeBlockResponse(h)!.txResults).toHaveLength(3);
    expect(node.consensus.mempool.size()).toBe(0);
    expect(node.app.committed.state.get('b')).toBe('2');

    const status = node.consensus.status();
    expect(status.latestBlockHeight).toBe(top);
    expect(status.earliestBlockHeight).toBe(1);
    expect(status.validatorInfo?.votingPower).toBe(10n);
    // Genesis app_state reached InitChain.
    expect(node.app.committed.state.get('genesis')).toBe('yes');
  });

  it('holds CheckTx of new txs while it waits for its WAL to reach the disk, and lets it through after', async () => {
    /** A WAL whose fsyncs wait for `release` while `stall` is set (a slow disk). */
    class StallingWAL extends MemoryWAL {
      stall: Promise<void> | undefined;
      stalled = 0;
      override async writeSyncAsync(msg: WalMessage): Promise<void> {
        this.write(msg);
        if (this.stall) {
          this.stalled++;
          await this.stall;
        }
      }
    }
    const pv = FilePV.generate();
    const wal = new StallingWAL();
    const node = await makeNode(makeGenesis([pv]), pv, { wal });
    running.push(node);
    await node.consensus.start();
    await waitForHeight(node.consensus, 2);
    let release!: () => void;
    wal.stall = new Promise<void>((resolve) => (release = resolve));
    try {
      const gate = (node.consensus.mempool as Mempool).priority;
      while (wal.stalled === 0) await yieldToEventLoop();
      expect(gate.closed).toBe(true);

      const checksBefore = node.app.calls.filter((call) => call === 'checkTx').length;
      let answered = false;
      const checked = node.consensus.mempool.checkTx(utf8('held=1')).then((res) => {
        answered = true;
        return res;
      });
      for (let i = 0; i < 20; i++) await yieldToEventLoop();
      expect(answered).toBe(false);
      expect(node.app.calls.filter((call) => call === 'checkTx').length).toBe(checksBefore);

      wal.stall = undefined;
      release();
      expect((await checked).code).toBe(0);
      expect(gate.closed).toBe(false);
    } finally {
      wal.stall = undefined;
      release();
    }
    await waitForHeight(node.consensus, node.consensus.blockStore.height() + 1);
  });

  it('rejects a malformed tx through CheckTx and keeps it out of the cache', async () => {
    const pv = FilePV.generate();
    const node = await makeNode(makeGenesis([pv]), pv);
    running.push(node);
    await node.consensus.start();
    const res = await node.consensus.mempool.checkTx(utf8('no-equals-sign'));
    expect(res.code).toBe(1);
    expect(node.consensus.mempool.size()).toBe(0);
    // Not cached: the same tx is checked again (and refused again) rather than "already exists".
    expect((await node.consensus.mempool.checkTx(utf8('no-equals-sign'))).code).toBe(1);
  });

  it('restart mid-chain: the handshake replays blocks into a fresh app and resumes at the same height and app hash', async () => {
    const pv = FilePV.generate();
    const genesis = makeGenesis([pv]);
    const wal = new MemoryWAL();
    const first = await makeNode(genesis, pv, { wal });
    await first.consensus.start();
    await first.consensus.mempool.checkTx(utf8('x=1'));
    await waitForHeight(first.consensus, 4);
    await first.consensus.mempool.checkTx(utf8('y=2'));
    await waitForHeight(first.consensus, first.consensus.blockStore.height() + 2);
    await first.consensus.stop();
    const storeHeight = first.consensus.blockStore.height();
    const state = first.consensus.chainState();
    expect(state.lastBlockHeight).toBe(storeHeight);
    expect(toHexUpper(state.appHash)).toBe(toHexUpper(first.app.committed.appHash));

    // A new app process that lost everything (height 0): the handshake must replay all blocks.
    const freshApp = new KvApp();
    const second = await makeNode(genesis, pv, { db: first.db, app: freshApp, wal });
    running.push(second);
    await second.consensus.start();
    expect(freshApp.initChainCount).toBe(1);
    expect(freshApp.committed.height).toBeGreaterThanOrEqual(storeHeight);
    expect(freshApp.committed.state.get('x')).toBe('1');
    expect(freshApp.committed.state.get('y')).toBe('2');
    await waitForHeight(second.consensus, storeHeight + 2);
    // Same chain: the block after the restart builds on the stored one with the replayed app hash.
    const next = second.consensus.blockStore.loadBlock(storeHeight + 1)!;
    expect(toHexUpper(next.header.appHash)).toBe(toHexUpper(state.appHash));
    expect(blockIdsEqual(next.header.lastBlockId, second.consensus.blockStore.loadBlockMeta(storeHeight)!.blockId)).toBe(true);
  });

  it('restart with an app that is one block behind replays only that block', async () => {
    const pv = FilePV.generate();
    const genesis = makeGenesis([pv]);
    const first = await makeNode(genesis, pv);
    await first.consensus.start();
    await waitForHeight(first.consensus, 3);
    await first.consensus.stop();
    const height = first.consensus.blockStore.height();

    // Rebuild an app snapshot one height behind by replaying the first height-1 blocks into a scratch app.
    const scratch = new KvApp();
    await scratch.initChain({ time: new Date(), chainId: genesis.chainId, consensusParams: genesis.consensusParams, validators: [], appStateBytes: utf8(genesis.appStateJson), initialHeight: 1 });
    for (let h = 1; h < height; h++) {
      const block = first.consensus.blockStore.loadBlock(h)!;
      await scratch.finalizeBlock({ txs: block.data.txs, decidedLastCommit: { round: 0, votes: [] }, misbehavior: [], hash: hashBlock(block), height: h, time: new Date(), nextValidatorsHash: block.header.nextValidatorsHash, proposerAddress: block.header.proposerAddress });
      await scratch.commit();
    }
    const behind = new KvApp(scratch.snapshot());
    const second = await makeNode(genesis, pv, { db: first.db, app: behind });
    running.push(second);
    await second.consensus.start();
    expect(behind.initChainCount).toBe(0);
    expect(behind.finalizeCount).toBeGreaterThanOrEqual(1);
    expect(behind.calls.filter((c) => c.startsWith('finalizeBlock'))[0]).toBe(`finalizeBlock:${height}`);
    await waitForHeight(second.consensus, height + 1);
  });

  it('with create_empty_blocks=false waits for txs, then makes the proof block for the new app hash', async () => {
    const pv = FilePV.generate();
    const node = await makeNode(makeGenesis([pv]), pv, { options: { createEmptyBlocks: false } });
    running.push(node);
    await node.consensus.start();
    await waitForHeight(node.consensus, 1); // the first height is always proposed (it signs the genesis app hash)
    await new Promise((r) => setTimeout(r, 300));
    expect(node.consensus.blockStore.height()).toBe(1); // block 1 left the app hash unchanged: wait for txs
    await node.consensus.mempool.checkTx(utf8('k=v'));
    await waitForHeight(node.consensus, 3); // 2 carries the tx, 3 is the empty proof block of its app hash
    expect(node.consensus.blockStore.loadBlock(2)!.data.txs).toHaveLength(1);
    expect(node.consensus.blockStore.loadBlock(3)!.data.txs).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(node.consensus.blockStore.height()).toBe(3);
  });

  it('applies validator updates from FinalizeBlock two heights later and publishes ValidatorSetUpdates', async () => {
    const pv = FilePV.generate();
    const node = await makeNode(makeGenesis([pv]), pv);
    running.push(node);
    const updates: bigint[] = [];
    node.consensus.eventBus.on('ValidatorSetUpdates', (d) => updates.push(d.validatorUpdates[0]!.votingPower));
    await node.consensus.start();
    await waitForHeight(node.consensus, 2);
    const waiter = node.consensus.eventBus.waitForTx(toHexUpper(txHash(utf8(`val:${Buffer.from(pv.pubKey.bytes).toString('hex')}=25`))), 10000);
    await node.consensus.mempool.checkTx(utf8(`val:${Buffer.from(pv.pubKey.bytes).toString('hex')}=25`));
    const h = (await waiter.promise).height;
    await waitForHeight(node.consensus, h + 3);
    expect(updates).toEqual([25n]);
    const store = node.consensus.stateStore;
    expect(store.loadValidators(h + 1)!.totalVotingPower()).toBe(10n);
    expect(store.loadValidators(h + 2)!.totalVotingPower()).toBe(25n);
    const bs = node.consensus.blockStore;
    expect(toHexUpper(bs.loadBlock(h + 1)!.header.nextValidatorsHash)).toBe(toHexUpper(store.loadValidators(h + 2)!.hash()));
    expect(toHexUpper(bs.loadBlock(h + 2)!.header.validatorsHash)).toBe(toHexUpper(store.loadValidators(h + 2)!.hash()));
    expect(node.consensus.status().validatorInfo?.votingPower).toBe(25n);
  });

  it('prunes blocks below the retain height the app returns from Commit', async () => {
    const pv = FilePV.generate();
    const app = new KvApp();
    app.retainBlocks = 3;
    const node = await makeNode(makeGenesis([pv]), pv, { app });
    running.push(node);
    await node.consensus.start();
    await waitForHeight(node.consensus, 8);
    const bs = node.consensus.blockStore;
    const top = bs.height();
    expect(bs.base()).toBeGreaterThanOrEqual(top - 3);
    expect(bs.loadBlock(1)).toBeUndefined();
    expect(bs.loadBlockMeta(2)).toBeUndefined();
    expect(node.consensus.stateStore.loadFinalizeBlockResponse(1)).toBeUndefined();
    expect(bs.loadBlock(bs.base())).toBeDefined();
    expect(node.consensus.status().earliestBlockHeight).toBe(bs.base());
    // Validators of retained heights are still loadable (their pointers were kept).
    expect(node.consensus.stateStore.loadValidators(top)!.size).toBe(1);
  });

  describe('handshake at each crash point between saving the block and saving the state', () => {
    async function chainWithHistory(): Promise<{ first: TestNode; genesis: ReturnType<typeof makeGenesis>; pv: FilePV; states: Map<number, ChainState>; snapshots: Map<number, KvSnapshot> }> {
      const pv = FilePV.generate();
      const genesis = makeGenesis([pv]);
      const first = await makeNode(genesis, pv);
      const states = new Map<number, ChainState>();
      const snapshots = new Map<number, KvSnapshot>();
      first.consensus.eventBus.on('NewBlock', (d) => {
        states.set(d.block.header.height, first.consensus.stateStore.load()!);
        snapshots.set(d.block.header.height, first.app.snapshot());
      });
      await first.consensus.start();
      await first.consensus.mempool.checkTx(utf8('p=1'));
      await waitForHeight(first.consensus, 5);
      await first.consensus.mempool.checkTx(utf8('q=2'));
      await waitForHeight(first.consensus, first.consensus.blockStore.height() + 2);
      await first.consensus.stop();
      return { first, genesis, pv, states, snapshots };
    }

    for (const [label, appLag] of [
      ['app committed the block, state not saved (stored FinalizeBlock response replayed)', 0],
      ['app one block behind (last block replayed into the app)', 1],
      ['app three blocks behind (blocks replayed, then the last one applied)', 3],
    ] as const) {
      it(label, async () => {
        const { first, genesis, pv, states, snapshots } = await chainWithHistory();
        const top = first.consensus.blockStore.height();
        const finalState = first.consensus.stateStore.load()!;
        // Roll the state store back one height: the block store is one ahead, as after a crash.
        await new StateStore(first.db).save(states.get(top - 1)!);
        const app = new KvApp(appLag === 0 ? first.app.snapshot() : snapshots.get(top - appLag)!);
        const second = await makeNode(genesis, pv, { db: first.db, app });
        running.push(second);
        await second.consensus.start();
        const state = second.consensus.chainState();
        expect(state.lastBlockHeight).toBe(top);
        expect(toHexUpper(state.appHash)).toBe(toHexUpper(finalState.appHash));
        expect(toHexUpper(app.committed.appHash)).toBe(toHexUpper(finalState.appHash));
        expect(app.finalizeCount).toBe(appLag);
        await waitForHeight(second.consensus, top + 2);
        expect(toHexUpper(second.consensus.blockStore.loadBlock(top + 1)!.header.appHash)).toBe(toHexUpper(finalState.appHash));
      });
    }
  });
});
