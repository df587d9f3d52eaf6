/**
 * Block sync (blocksync/reactor.go, pool.go) on channel 0x40 with tendermint.blocksync.Message.
 *
 * Every node answers StatusRequest (its block range) and BlockRequest (a stored block). A node
 * that starts behind runs the pool: it learns the peers' ranges, keeps up to 20 requests in
 * flight per peer, and applies blocks in order. Block H is verified with block H+1's
 * LastCommit against the validator set of our state (+2/3 signed it), then validated like a
 * proposal, stored with that commit and executed. A peer that sends a block failing the checks,
 * or a block we did not ask it for, is stopped and banned, and its requests go to others.
 *
 * The node switches to consensus when it has a peer, received a block or waited 5 s, and is
 * within one block of the best peer (IsCaughtUp), or when its own voting power alone can stall
 * the chain.
 */
import type { Logger } from '../../logger.js';
import { nullLogger } from '../../logger.js';
import { P2PError } from '../../p2p/errors.js';
import type { ChannelDescriptor } from '../../p2p/conn/mconnection.js';
import type { Peer } from '../../p2p/peer.js';
import type { Reactor, Switchboard } from '../../p2p/switch.js';
import type { ChainState } from '../state/chainState.js';
import type { BlockExecutor } from '../state/execution.js';
import { makePartSet } from '../state/execution.js';
import type { BlockStore } from '../store/blockStore.js';
import { MAX_BLOCK_SIZE_BYTES, decodeBlock, validateBlockBasic, type Block } from '../types/block.js';
import { toHexUpper } from '../types/bytes.js';
import { encodeProto, readMessage } from '../types/proto.js';

export const BLOCKSYNC_CHANNEL = 0x40;
/** A block response: the largest block plus the message's prefix and key (bcBlockResponseMessage*). */
const MAX_MSG_BYTES = MAX_BLOCK_SIZE_BYTES + 5;
const MAX_PENDING_REQUESTS_PER_PEER = 20;
const MAX_PENDING_REQUESTS = 600;
const TRY_SYNC_INTERVAL_MS = 10;
const STATUS_UPDATE_INTERVAL_MS = 10_000;
const SWITCH_TO_CONSENSUS_INTERVAL_MS = 1000;
/** A request not answered in this time goes to another peer (peerTimeout). */
const REQUEST_TIMEOUT_MS = 15_000;
/** Without any block received, this long with peers counts as caught up (IsCaughtUp). */
const CAUGHT_UP_WAIT_MS = 5000;

export type BlocksyncMessage =
  | { type: 'blockRequest'; height: number }
  | { type: 'noBlockResponse'; height: number }
  | { type: 'blockResponse'; block: Block; blockBytes: Uint8Array }
  | { type: 'statusRequest' }
  | { type: 'statusResponse'; height: number; base: number };

export function encodeBlocksyncMessage(m: BlocksyncMessage | { type: 'blockResponseRaw'; blockBytes: Uint8Array }): Uint8Array {
  switch (m.type) {
    case 'blockRequest':
      return encodeProto((w) => w.messageAlways(1, (x) => x.varintField(1, m.height)), 16);
    case 'noBlockResponse':
      return encodeProto((w) => w.messageAlways(2, (x) => x.varintField(1, m.height)), 16);
    case 'blockResponse':
    case 'blockResponseRaw':
      return encodeProto((w) => w.messageAlways(3, (x) => x.bytesAlways(1, m.blockBytes)), m.blockBytes.length + 16);
    case 'statusRequest':
      return encodeProto((w) => w.messageAlways(4, () => undefined), 4);
    case 'statusResponse':
      return encodeProto((w) => w.messageAlways(5, (x) => x.varintField(1, m.height).varintField(2, m.base)), 24);
  }
}

/** Decode and validate (ValidateMsg); throws PROTOCOL for anything malformed. */
export function decodeBlocksyncMessage(bytes: Uint8Array): BlocksyncMessage {
  let out: BlocksyncMessage | undefined;
  const fail = (msg: string): never => {
    throw new P2PError('PROTOCOL', `blocksync: ${msg}`);
  };
  try {
    readMessage(bytes, (field, wire, r) => {
      if (wire !== 2) return r.skip(wire);
      const inner = r.bytes();
      const ints: Record<number, number> = {};
      let blockBytes: Uint8Array | undefined;
      let extCommit = false;
      readMessage(inner, (f, wt, rr) => {
        if (wt === 0) ints[f] = rr.int64Number();
        else if (field === 3 && f === 1 && wt === 2) blockBytes = rr.bytes();
        else if (field === 3 && f === 2 && wt === 2) {
          rr.bytes();
          extCommit = true;
        } else rr.skip(wt);
      });
      const height = ints[1] ?? 0;
      if (field === 1) out = { type: 'blockRequest', height };
      else if (field === 2) out = { type: 'noBlockResponse', height };
      else if (field === 3) {
        const raw = blockBytes as Uint8Array | undefined;
        if (!raw) return fail('block response has no block');
        if (extCommit) fail('extended commits are not supported (vote extensions are disabled on this chain)');
        out = { type: 'blockResponse', block: decodeBlock(raw), blockBytes: raw };
      } else if (field === 4) out = { type: 'statusRequest' };
      else if (field === 5) out = { type: 'statusResponse', height, base: ints[2] ?? 0 };
    });
  } catch (err) {
    if (err instanceof P2PError) throw err;
    fail(`invalid message: ${(err as Error).message}`);
  }
  const m = out as BlocksyncMessage | undefined;
  if (!m) return fail('unknown message');
  if ((m.type === 'blockRequest' || m.type === 'noBlockResponse') && m.height < 0) fail('negative Height');
  if (m.type === 'statusResponse') {
    if (m.base < 0) fail('negative Base');
    if (m.height < 0) fail('negative Height');
    if (m.base > m.height) fail(`base ${m.base} cannot be greater than height ${m.height}`);
  }
  return m;
}

interface PoolPeer {
  id: string;
  base: number;
  height: number;
  pending: number;
}

interface Requester {
  height: number;
  peerId: string | undefined;
  requestedAtMs: number;
  block: Block | undefined;
}

export interface BlocksyncDeps {
  blockStore: BlockStore;
  executor: BlockExecutor;
  /** Our validator address (undefined on a full node). */
  localAddress: Uint8Array | undefined;
  /** Called once when the node should switch to consensus. */
  onCaughtUp: (state: ChainState, blocksSynced: number) => void;
  /** After each applied block (status, metrics). */
  onBlockApplied?: (state: ChainState) => void;
  /** A verified block could not be applied (app or store failure): the node must halt. */
  onFailure?: (err: Error) => void;
}

export class BlocksyncReactor implements Reactor {
  readonly name = 'BLOCKSYNC';
  private sw: Switchboard | undefined;
  private readonly peers = new Map<string, PoolPeer>();
  private readonly requesters = new Map<number, Requester>();
  private syncing = false;
  private state: ChainState | undefined;
  private poolHeight = 0;
  private startMs = 0;
  private blocksSynced = 0;
  private maxPeerHeight = 0;
  private timers: NodeJS.Timeout[] = [];
  private processing = false;
  private lastRateMark = { blocks: 0, ms: 0 };
  /** On-demand requests (blocks this node lacks, for the RPC): "peer/height" → waiter. */
  private readonly onDemand = new Map<string, (block: Block | undefined) => void>();
  private readonly logger: Logger;

  constructor(
    private readonly deps: BlocksyncDeps,
    logger?: Logger,
  ) {
    this.logger = logger ?? nullLogger;
  }

  channels(): ChannelDescriptor[] {
    return [{ id: BLOCKSYNC_CHANNEL, priority: 5, sendQueueCapacity: 1000, recvMessageCapacity: MAX_MSG_BYTES }];
  }

  setSwitch(sw: Switchboard): void {
    this.sw = sw;
  }

  get isSyncing(): boolean {
    return this.syncing;
  }

  /** Highest height any peer reported. */
  get maxPeerBlockHeight(): number {
    return this.maxPeerHeight;
  }

  /** Start downloading from `state` (the handshake's or state sync's result). */
  startSync(state: ChainState): void {
    this.state = state;
    this.syncing = true;
    this.poolHeight = state.lastBlockHeight === 0 ? state.initialHeight : state.lastBlockHeight + 1;
    this.startMs = Date.now();
    this.lastRateMark = { blocks: 0, ms: Date.now() };
    this.logger.info('starting block sync', { height: this.poolHeight });
    this.sw?.broadcast(BLOCKSYNC_CHANNEL, encodeBlocksyncMessage({ type: 'statusRequest' }));
    const every = (ms: number, fn: () => void): void => {
      const t = setInterval(fn, ms);
      t.unref();
      this.timers.push(t);
    };
    every(TRY_SYNC_INTERVAL_MS, () => void this.trySync());
    every(STATUS_UPDATE_INTERVAL_MS, () => this.sw?.broadcast(BLOCKSYNC_CHANNEL, encodeBlocksyncMessage({ type: 'statusRequest' })));
    every(SWITCH_TO_CONSENSUS_INTERVAL_MS, () => this.checkCaughtUp());
  }

  stop(): void {
    this.stopSync();
  }

  private stopSync(): void {
    this.syncing = false;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    this.requesters.clear();
  }

  addPeer(peer: Peer): void {
    peer.send(BLOCKSYNC_CHANNEL, encodeBlocksyncMessage({ type: 'statusResponse', height: this.deps.blockStore.height(), base: this.deps.blockStore.base() }));
  }

  removePeer(peer: Peer): void {
    this.peers.delete(peer.id);
    this.recomputeMaxPeerHeight();
    for (const r of this.requesters.values()) {
      if (r.peerId === peer.id && !r.block) r.peerId = undefined;
    }
  }

  receive(_channelId: number, peer: Peer, message: Buffer): void {
    const msg = decodeBlocksyncMessage(message);
    switch (msg.type) {
      case 'blockRequest': {
        const bytes = this.deps.blockStore.loadBlockBytes(msg.height);
        if (!bytes) {
          this.logger.debug('peer asking for a block we do not have', { peer: peer.id, height: msg.height });
          peer.trySend(BLOCKSYNC_CHANNEL, encodeBlocksyncMessage({ type: 'noBlockResponse', height: msg.height }));
          return;
        }
        peer.trySend(BLOCKSYNC_CHANNEL, encodeBlocksyncMessage({ type: 'blockResponseRaw', blockBytes: bytes }));
        return;
      }
      case 'statusRequest':
        peer.trySend(BLOCKSYNC_CHANNEL, encodeBlocksyncMessage({ type: 'statusResponse', height: this.deps.blockStore.height(), base: this.deps.blockStore.base() }));
        return;
      case 'statusResponse':
        this.setPeerRange(peer.id, msg.base, msg.height);
        return;
      case 'noBlockResponse': {
        const waiter = this.onDemand.get(`${peer.id}/${msg.height}`);
        if (waiter) {
          this.onDemand.delete(`${peer.id}/${msg.height}`);
          waiter(undefined);
          return;
        }
        const r = this.requesters.get(msg.height);
        if (r && r.peerId === peer.id && !r.block) r.peerId = undefined;
        const p = this.peers.get(peer.id);
        if (p && p.pending > 0) p.pending--;
        return;
      }
      case 'blockResponse': {
        const waiter = this.onDemand.get(`${peer.id}/${msg.block.header.height}`);
        if (waiter) {
          this.onDemand.delete(`${peer.id}/${msg.block.header.height}`);
          waiter(msg.block);
          return;
        }
        this.addBlock(peer, msg.block);
        return;
      }
    }
  }

  /** Peers that reported having `height`. */
  peersWithHeight(height: number): string[] {
    return [...this.peers.values()].filter((p) => height >= p.base && height <= p.height).map((p) => p.id);
  }

  /** Ask one peer for one block (outside of block sync); undefined when it has none or times out. */
  requestBlock(peerId: string, height: number, timeoutMs: number): Promise<Block | undefined> {
    const peer = this.sw?.peer(peerId);
    if (!peer) return Promise.resolve(undefined);
    const key = `${peerId}/${height}`;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.onDemand.delete(key);
        resolve(undefined);
      }, timeoutMs);
      this.onDemand.set(key, (block) => {
        clearTimeout(timer);
        resolve(block);
      });
      if (!peer.trySend(BLOCKSYNC_CHANNEL, encodeBlocksyncMessage({ type: 'blockRequest', height }))) {
        clearTimeout(timer);
        this.onDemand.delete(key);
        resolve(undefined);
      }
    });
  }

  private setPeerRange(id: string, base: number, height: number): void {
    const peer = this.peers.get(id);
    if (peer) {
      peer.base = base;
      peer.height = height;
    } else {
      this.peers.set(id, { id, base, height, pending: 0 });
    }
    this.recomputeMaxPeerHeight();
  }

  private recomputeMaxPeerHeight(): void {
    let max = 0;
    for (const p of this.peers.values()) max = Math.max(max, p.height);
    this.maxPeerHeight = max;
  }

  private addBlock(peer: Peer, block: Block): void {
    if (!this.syncing) return; // a late answer after we switched to consensus
    const height = block.header.height;
    const r = this.requesters.get(height);
    if (!r) {
      if (height > this.poolHeight + MAX_PENDING_REQUESTS || height < this.poolHeight - 1) {
        throw new P2PError('FLOOD', `blocksync: peer sent us block #${height} we didn't expect (current height: ${this.poolHeight})`);
      }
      return; // already committed (a slow peer)
    }
    if (r.peerId !== peer.id || r.block) {
      throw new P2PError('FLOOD', `blocksync: requested block #${height} from ${r.peerId ?? 'nobody'}, not ${peer.id}`);
    }
    r.block = block;
    const p = this.peers.get(peer.id);
    if (p && p.pending > 0) p.pending--;
    if (!this.processing) setImmediate(() => void this.trySync());
  }

  /** Assign pending heights to peers with room (makeRequestersRoutine + pickIncrAvailablePeer). */
  private makeRequests(): void {
    const sw = this.sw;
    if (!sw) return;
    const now = Date.now();
    for (const r of this.requesters.values()) {
      if (r.peerId && !r.block && now - r.requestedAtMs > REQUEST_TIMEOUT_MS) {
        const p = this.peers.get(r.peerId);
        this.logger.info('block request timed out; asking another peer', { height: r.height, peer: r.peerId });
        if (p) this.peers.delete(p.id);
        r.peerId = undefined;
      }
    }
    const limit = Math.min(this.maxPeerHeight, this.poolHeight + MAX_PENDING_REQUESTS - 1);
    for (let h = this.poolHeight; h <= limit; h++) {
      let r = this.requesters.get(h);
      if (!r) {
        r = { height: h, peerId: undefined, requestedAtMs: 0, block: undefined };
        this.requesters.set(h, r);
      }
      if (r.peerId || r.block) continue;
      const peer = [...this.peers.values()].filter((p) => p.pending < MAX_PENDING_REQUESTS_PER_PEER && h >= p.base && h <= p.height).sort((a, b) => a.pending - b.pending)[0];
      if (!peer) {
        if ([...this.peers.values()].every((p) => p.pending >= MAX_PENDING_REQUESTS_PER_PEER)) break;
        continue;
      }
      const target = sw.peer(peer.id);
      if (!target || !target.trySend(BLOCKSYNC_CHANNEL, encodeBlocksyncMessage({ type: 'blockRequest', height: h }))) continue;
      peer.pending++;
      r.peerId = peer.id;
      r.requestedAtMs = now;
    }
  }

  /** Apply every block we can verify (first with second's LastCommit). */
  private async trySync(): Promise<void> {
    if (!this.syncing || this.processing) return;
    this.processing = true;
    try {
      for (;;) {
        this.makeRequests();
        const first = this.requesters.get(this.poolHeight)?.block;
        const second = this.requesters.get(this.poolHeight + 1)?.block;
        if (!first || !second || !this.state || !this.syncing) return;
        const firstPeer = this.requesters.get(this.poolHeight)!.peerId;
        const secondPeer = this.requesters.get(this.poolHeight + 1)!.peerId;
        const state = this.state;
        // A block that is inconsistent by itself (its hashes do not match its contents) is its
        // sender's fault for sure; a block the next block's commit does not vouch for could be
        // either sender's.
        for (const [block, peer] of [
          [first, firstPeer],
          [second, secondPeer],
        ] as const) {
          try {
            validateBlockBasic(block);
          } catch (err) {
            this.handleValidationFailure(block.header.height, [peer], err as Error, true);
            return;
          }
        }
        const { blockBytes, blockId } = makePartSet(first);
        try {
          state.validators.verifyCommit(state.chainId, blockId, first.header.height, second.lastCommit);
          this.deps.executor.validateBlock(state, first);
        } catch (err) {
          this.handleValidationFailure(first.header.height, [firstPeer, secondPeer], err as Error, firstPeer === secondPeer);
          continue;
        }
        this.requesters.delete(this.poolHeight);
        await this.deps.blockStore.saveBlock(first, blockBytes, blockId, second.lastCommit);
        this.state = await this.deps.executor.applyBlock(state, blockId, first);
        this.poolHeight++;
        this.blocksSynced++;
        this.deps.onBlockApplied?.(this.state);
        if (this.blocksSynced % 100 === 0) {
          const now = Date.now();
          const rate = ((this.blocksSynced - this.lastRateMark.blocks) * 1000) / Math.max(1, now - this.lastRateMark.ms);
          this.lastRateMark = { blocks: this.blocksSynced, ms: now };
          this.logger.info('block sync rate', { height: this.poolHeight, max_peer_height: this.maxPeerHeight, 'blocks/s': Math.round(rate) });
        }
      }
    } catch (err) {
      this.logger.error('block sync failed to apply a verified block', { height: this.poolHeight, err: (err as Error).message });
      this.stopSync();
      this.deps.onFailure?.(err as Error);
    } finally {
      this.processing = false;
    }
  }

  /**
   * Drop the blocks of the peers involved and their pending requests, and disconnect them; ban
   * them only when the fault is certainly theirs.
   */
  private handleValidationFailure(height: number, peers: (string | undefined)[], err: Error, certain: boolean): void {
    this.logger.error('error in validation of a synced block', { height, peers: peers.filter(Boolean), err: err.message });
    for (const id of new Set(peers)) {
      if (!id) continue;
      this.peers.delete(id);
      for (const r of this.requesters.values()) {
        if (r.peerId === id) {
          r.peerId = undefined;
          r.block = undefined;
        }
      }
      const peer = this.sw?.peer(id);
      if (peer) this.sw?.stopPeerForError(peer, new P2PError(certain ? 'MISBEHAVIOUR' : 'UNVERIFIABLE', `blocksync: invalid block ${height}: ${err.message}`));
    }
    this.recomputeMaxPeerHeight();
  }

  /** IsCaughtUp, or our own voting power can stall the chain (localNodeBlocksTheChain). */
  private checkCaughtUp(): void {
    if (!this.syncing || !this.state) return;
    const state = this.state;
    const receivedOrWaited = this.blocksSynced > 0 || Date.now() - this.startMs > CAUGHT_UP_WAIT_MS;
    const ourHeight = state.lastBlockHeight;
    const longest = this.maxPeerHeight === 0 || ourHeight >= this.maxPeerHeight - 1;
    const caughtUp = this.peers.size > 0 && receivedOrWaited && longest;
    let blocksChain = false;
    if (this.deps.localAddress) {
      const [, val] = state.validators.getByAddress(this.deps.localAddress);
      if (val) blocksChain = val.votingPower >= state.validators.totalVotingPower() / 3n;
    }
    if (!caughtUp && !blocksChain) return;
    this.logger.info('time to switch to consensus', { height: ourHeight, max_peer_height: this.maxPeerHeight, blocks_synced: this.blocksSynced, last_block: toHexUpper(state.lastBlockId.hash) });
    this.stopSync();
    this.deps.onCaughtUp(state, this.blocksSynced);
  }
}
