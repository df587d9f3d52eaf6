/**
 * Block sync in process: a full node started late downloads and verifies the validator's blocks,
 * then switches to consensus and follows; a peer serving a block whose contents do not match its
 * header is banned and its heights are fetched from the honest peer.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { FilePV, generateNodeKey } from '../../../src/node/consensus/privval.js';
import { BLOCKSYNC_CHANNEL, decodeBlocksyncMessage, encodeBlocksyncMessage } from '../../../src/node/consensus/blocksync/reactor.js';
import { decodeBlock, encodeBlock } from '../../../src/node/consensus/types/block.js';
import { toHexUpper } from '../../../src/node/consensus/types/bytes.js';
import { MemoryNetwork, P2PNode, type Peer, type Reactor, type Switchboard } from '../../../src/node/p2p/index.js';
import type { ChannelDescriptor } from '../../../src/node/p2p/conn/mconnection.js';
import type { BlockStore } from '../../../src/node/consensus/store/blockStore.js';
import { makeGenesis, makeNode, memoryP2P, waitForHeight, type TestNode } from './helpers.js';

const running: { stop(): Promise<void> }[] = [];
afterEach(async () => {
  for (const n of running.splice(0).reverse()) await n.stop();
});

/** Claims every height and serves the honest blocks with one extra tx (the data hash no longer matches). */
class CorruptingBlockServer implements Reactor {
  readonly name = 'BLOCKSYNC';
  constructor(private readonly source: BlockStore) {}
  channels(): ChannelDescriptor[] {
    return [{ id: BLOCKSYNC_CHANNEL, priority: 5, sendQueueCapacity: 1000, recvMessageCapacity: 10_000_000 }];
  }
  setSwitch(_sw: Switchboard): void {}
  addPeer(peer: Peer): void {
    peer.send(BLOCKSYNC_CHANNEL, encodeBlocksyncMessage({ type: 'statusResponse', base: 1, height: this.source.height() }));
  }
  removePeer(): void {}
  receive(_ch: number, peer: Peer, message: Buffer): void {
    const msg = decodeBlocksyncMessage(message);
    if (msg.type === 'statusRequest') peer.send(BLOCKSYNC_CHANNEL, encodeBlocksyncMessage({ type: 'statusResponse', base: 1, height: this.source.height() }));
    if (msg.type !== 'blockRequest') return;
    const bytes = this.source.loadBlockBytes(msg.height);
    if (!bytes) return;
    const block = decodeBlock(bytes);
    block.data.txs.push(new TextEncoder().encode('forged=1'));
    peer.send(BLOCKSYNC_CHANNEL, encodeBlocksyncMessage({ type: 'blockResponseRaw', blockBytes: encodeBlock(block) }));
  }
}

describe('block sync', () => {
  it('a late full node downloads verified blocks, bans a peer serving forged blocks, then follows consensus', async () => {
    const validatorPv = FilePV.generate();
    const genesis = makeGenesis([validatorPv]);
    const network = new MemoryNetwork();
    const keys = [generateNodeKey(), generateNodeKey(), generateNodeKey()];
    // The validator knows no one (it must not dial the full node itself).
    const validator: TestNode = await makeNode(genesis, validatorPv, { p2p: memoryP2P(network, [keys[0]!], 0) });
    running.push(validator);
    await validator.start();
    await validator.consensus.mempool.checkTx(new TextEncoder().encode('a=1'));
    await waitForHeight(validator.consensus, 25, 30000);

    const forger = new P2PNode({
      nodeKey: keys[2]!,
      network: genesis.chainId,
      moniker: 'forger',
      version: '0.38.17',
      memoryNetwork: network,
      options: { laddr: 'tcp://127.0.0.1:20002', pex: false, allowDuplicateIp: true, addrBookStrict: false },
    });
    forger.addReactor(new CorruptingBlockServer(validator.consensus.blockStore as BlockStore));
    await forger.start();
    running.push(forger);

    // The full node knows only the forger at first; it learns of the validator once the forger is banned.
    const fullP2P = new P2PNode({
      nodeKey: keys[1]!,
      network: genesis.chainId,
      moniker: 'full',
      version: '0.38.17',
      memoryNetwork: network,
      options: { laddr: 'tcp://127.0.0.1:20001', pex: false, allowDuplicateIp: true, addrBookStrict: false, persistentPeers: `${keys[2]!.id}@127.0.0.1:20002` },
    });
    const full: TestNode = await makeNode(genesis, FilePV.generate(), { p2p: fullP2P, blockSync: true });
    running.push(full);
    await full.start();
    expect(full.consensus.status().catchingUp).toBe(true);
    const banDeadline = Date.now() + 20000;
    while (!fullP2P.switch.isBanned(keys[2]!.id)) {
      if (Date.now() > banDeadline) throw new Error('the forger was not banned');
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(full.consensus.blockStore.height()).toBe(0);
    fullP2P.dial([`${keys[0]!.id}@127.0.0.1:20000`], { persistent: true, seeds: false });
    const target = validator.consensus.blockStore.height();
    await waitForHeight(full.consensus, target, 30000);
    await new Promise<void>((resolve, reject) => {
      const deadline = Date.now() + 20000;
      const tick = (): void => {
        if (!full.consensus.status().catchingUp) resolve();
        else if (Date.now() > deadline) reject(new Error('still catching up'));
        else setTimeout(tick, 50);
      };
      tick();
    });
    expect(full.p2p!.switch.isBanned(keys[2]!.id)).toBe(true);
    for (let h = 1; h <= target; h++) {
      expect(toHexUpper(full.consensus.blockStore.loadBlockMeta(h)!.blockId.hash)).toBe(toHexUpper(validator.consensus.blockStore.loadBlockMeta(h)!.blockId.hash));
    }
    // It follows consensus afterwards.
    await waitForHeight(full.consensus, target + 3, 20000);
    expect(full.app.committed.appHash).toEqual(validator.consensus.stateStore.loadFinalizeBlockResponse(full.app.committed.height)!.appHash);
  }, 60000);
});
