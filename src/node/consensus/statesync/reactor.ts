/**
 * State sync (statesync/reactor.go, syncer.go) on channels 0x60 (snapshots) and 0x61 (chunks)
 * with tendermint.statesync.Message.
 *
 * Serving: SnapshotsRequest is answered with the app's most recent snapshots (ListSnapshots),
 * ChunkRequest with LoadSnapshotChunk (or missing = true).
 *
 * Syncing (a new node): ask every peer for snapshots during `discovery_time`, take the highest,
 * get its app hash from the light client (header H+1, verified from the trusted height), offer it
 * to the app, fetch its chunks from the peers that have it (`chunk_fetchers` at a time,
 * `chunk_request_timeout` each) and apply them in order. A chunk the app rejects (its hash does
 * not match the snapshot's metadata) is fetched again from another peer and its sender is banned.
 * The result is the chain state at H built from light blocks H, H+1, H+2, and the commit of H.
 */
import type { Logger } from '../../logger.js';
import { nullLogger } from '../../logger.js';
import type { Snapshot, SnapshotApplication } from '../../abci/types.js';
import { P2PError } from '../../p2p/errors.js';
import type { ChannelDescriptor } from '../../p2p/conn/mconnection.js';
import type { Peer } from '../../p2p/peer.js';
import type { Reactor, Switchboard } from '../../p2p/switch.js';
import { ConsensusError } from '../errors.js';
import type { Commit } from '../types/block.js';
import { encodeProto, readMessage } from '../types/proto.js';
import type { ChainState } from '../state/chainState.js';
import { stateFromLightClient, type LightClient } from './lightClient.js';

export const SNAPSHOT_CHANNEL = 0x60;
export const CHUNK_CHANNEL = 0x61;
const SNAPSHOT_MSG_BYTES = 4_000_000;
const CHUNK_MSG_BYTES = 16_000_000;
/** Snapshots advertised per request (recentSnapshots). */
const RECENT_SNAPSHOTS = 10;

export type StatesyncMessage =
  | { type: 'snapshotsRequest' }
  | { type: 'snapshotsResponse'; snapshot: Snapshot }
  | { type: 'chunkRequest'; height: number; format: number; index: number }
  | { type: 'chunkResponse'; height: number; format: number; index: number; chunk: Uint8Array; missing: boolean };

export function encodeStatesyncMessage(m: StatesyncMessage): Uint8Array {
  switch (m.type) {
    case 'snapshotsRequest':
      return encodeProto((w) => w.messageAlways(1, () => undefined), 4);
    case 'snapshotsResponse':
      return encodeProto((w) =>
        w.messageAlways(2, (x) => {
          x.varintField(1, m.snapshot.height);
          x.varintField(2, m.snapshot.format);
          x.varintField(3, m.snapshot.chunks);
          x.bytesField(4, m.snapshot.hash);
          x.bytesField(5, m.snapshot.metadata);
        }),
      );
    case 'chunkRequest':
      return encodeProto((w) => w.messageAlways(3, (x) => x.varintField(1, m.height).varintField(2, m.format).varintField(3, m.index)), 32);
    case 'chunkResponse':
      return encodeProto(
        (w) =>
          w.messageAlways(4, (x) => {
            x.varintField(1, m.height);
            x.varintField(2, m.format);
            x.varintField(3, m.index);
            x.bytesField(4, m.chunk);
            x.varintField(5, m.missing);
          }),
        m.chunk.length + 32,
      );
  }
}

export function decodeStatesyncMessage(bytes: Uint8Array): StatesyncMessage {
  let out: StatesyncMessage | undefined;
  try {
    readMessage(bytes, (field, wire, r) => {
      if (wire !== 2) return r.skip(wire);
      const inner = r.bytes();
      const ints: Record<number, number> = {};
      const blobs: Record<number, Uint8Array> = {};
      readMessage(inner, (f, wt, rr) => {
        if (wt === 0) ints[f] = rr.uvarint();
        else if (wt === 2) blobs[f] = rr.bytes().slice();
        else rr.skip(wt);
      });
      if (field === 1) out = { type: 'snapshotsRequest' };
      else if (field === 2) {
        out = { type: 'snapshotsResponse', snapshot: { height: ints[1] ?? 0, format: ints[2] ?? 0, chunks: ints[3] ?? 0, hash: blobs[4] ?? new Uint8Array(0), metadata: blobs[5] ?? new Uint8Array(0) } };
      } else if (field === 3) out = { type: 'chunkRequest', height: ints[1] ?? 0, format: ints[2] ?? 0, index: ints[3] ?? 0 };
      else if (field === 4) out = { type: 'chunkResponse', height: ints[1] ?? 0, format: ints[2] ?? 0, index: ints[3] ?? 0, chunk: blobs[4] ?? new Uint8Array(0), missing: (ints[5] ?? 0) !== 0 };
    });
  } catch (err) {
    throw new P2PError('PROTOCOL', `statesync: invalid message: ${(err as Error).message}`);
  }
  const m = out as StatesyncMessage | undefined;
  if (!m) throw new P2PError('PROTOCOL', 'statesync: unknown message');
  if (m.type === 'snapshotsResponse') {
    if (m.snapshot.height === 0) throw new P2PError('PROTOCOL', 'statesync: snapshot has no height');
    if (m.snapshot.chunks === 0) throw new P2PError('PROTOCOL', 'statesync: snapshot has no chunks');
    if (m.snapshot.hash.length === 0) throw new P2PError('PROTOCOL', 'statesync: snapshot has no hash');
  }
  if (m.type === 'chunkRequest' && m.height === 0) throw new P2PError('PROTOCOL', 'statesync: chunk request has no height');
  if (m.type === 'chunkResponse' && m.missing && m.chunk.length > 0) throw new P2PError('PROTOCOL', 'statesync: missing chunk cannot have contents');
  return m;
}

function snapshotKey(s: Snapshot): string {
  return `${s.height}/${s.format}/${Buffer.from(s.hash).toString('hex')}`;
}

export interface StateSyncOptions {
  discoveryTimeMs: number;
  chunkRequestTimeoutMs: number;
  chunkFetchers: number;
}

export interface StateSyncResult {
  state: ChainState;
  commit: Commit;
}

interface PendingChunk {
  resolve: (chunk: { chunk: Uint8Array; sender: string } | undefined) => void;
  peer: string;
}

export class StateSyncReactor implements Reactor {
  readonly name = 'STATESYNC';
  private sw: Switchboard | undefined;
  private syncing = false;
  private stopped = false;
  private wakeDiscovery: (() => void) | undefined;
  private readonly snapshots = new Map<string, { snapshot: Snapshot; peers: Set<string> }>();
  private readonly rejected = new Set<string>();
  private readonly pendingChunks = new Map<string, PendingChunk>();
  private readonly logger: Logger;

  constructor(
    private readonly app: SnapshotApplication | undefined,
    logger?: Logger,
  ) {
    this.logger = logger ?? nullLogger;
  }

  channels(): ChannelDescriptor[] {
    return [
      { id: SNAPSHOT_CHANNEL, priority: 6, sendQueueCapacity: 10, recvMessageCapacity: SNAPSHOT_MSG_BYTES },
      { id: CHUNK_CHANNEL, priority: 3, sendQueueCapacity: 4, recvMessageCapacity: CHUNK_MSG_BYTES },
    ];
  }

  setSwitch(sw: Switchboard): void {
    this.sw = sw;
  }

  /** Abort a sync in progress (node shutdown). */
  stop(): void {
    this.stopped = true;
    this.wakeDiscovery?.();
  }

  addPeer(peer: Peer): void {
    if (this.syncing) peer.send(SNAPSHOT_CHANNEL, encodeStatesyncMessage({ type: 'snapshotsRequest' }));
  }

  removePeer(peer: Peer): void {
    for (const entry of this.snapshots.values()) entry.peers.delete(peer.id);
    for (const [key, pending] of this.pendingChunks) {
      if (pending.peer === peer.id) {
        this.pendingChunks.delete(key);
        pending.resolve(undefined);
      }
    }
  }

  receive(channelId: number, peer: Peer, message: Buffer): void {
    const msg = decodeStatesyncMessage(message);
    switch (msg.type) {
      case 'snapshotsRequest':
        void this.answerSnapshots(peer);
        return;
      case 'snapshotsResponse': {
        if (!this.syncing) return;
        const key = snapshotKey(msg.snapshot);
        const entry = this.snapshots.get(key) ?? { snapshot: msg.snapshot, peers: new Set<string>() };
        entry.peers.add(peer.id);
        this.snapshots.set(key, entry);
        this.logger.debug('discovered snapshot', { height: msg.snapshot.height, format: msg.snapshot.format, peer: peer.id });
        return;
      }
      case 'chunkRequest':
        void this.answerChunk(peer, msg);
        return;
      case 'chunkResponse': {
        const key = `${msg.height}/${msg.format}/${msg.index}/${peer.id}`;
        const pending = this.pendingChunks.get(key);
        if (!pending) return; // late or unsolicited: ignore (CometBFT logs it)
        this.pendingChunks.delete(key);
        pending.resolve(msg.missing ? undefined : { chunk: msg.chunk, sender: peer.id });
        return;
      }
    }
    void channelId;
  }

  private async answerSnapshots(peer: Peer): Promise<void> {
    if (!this.app) return;
    try {
      const list = (await this.app.listSnapshots()).sort((a, b) => b.height - a.height).slice(0, RECENT_SNAPSHOTS);
      for (const snapshot of list) peer.send(SNAPSHOT_CHANNEL, encodeStatesyncMessage({ type: 'snapshotsResponse', snapshot }));
    } catch (err) {
      this.logger.error('failed to list snapshots', { err: (err as Error).message });
    }
  }

  private async answerChunk(peer: Peer, msg: Extract<StatesyncMessage, { type: 'chunkRequest' }>): Promise<void> {
    let chunk: Uint8Array | undefined;
    try {
      chunk = this.app ? (await this.app.loadSnapshotChunk({ height: msg.height, format: msg.format, chunk: msg.index })).chunk : undefined;
    } catch (err) {
      this.logger.error('failed to load snapshot chunk', { height: msg.height, index: msg.index, err: (err as Error).message });
    }
    peer.send(CHUNK_CHANNEL, encodeStatesyncMessage({ type: 'chunkResponse', height: msg.height, format: msg.format, index: msg.index, chunk: chunk ?? new Uint8Array(0), missing: !chunk }));
  }

  private requestChunk(peerId: string, snapshot: Snapshot, index: number, timeoutMs: number): Promise<{ chunk: Uint8Array; sender: string } | undefined> {
    const peer = this.sw?.peer(peerId);
    if (!peer) return Promise.resolve(undefined);
    const key = `${snapshot.height}/${snapshot.format}/${index}/${peerId}`;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pendingChunks.delete(key);
        resolve(undefined);
      }, timeoutMs);
      this.pendingChunks.set(key, {
        peer: peerId,
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value);
        },
      });
      if (!peer.send(CHUNK_CHANNEL, encodeStatesyncMessage({ type: 'chunkRequest', height: snapshot.height, format: snapshot.format, index }))) {
        this.pendingChunks.delete(key);
        clearTimeout(timer);
        resolve(undefined);
      }
    });
  }

  /** Fetch one chunk from any peer of the snapshot, trying each in turn. */
  private async fetchChunk(entry: { snapshot: Snapshot; peers: Set<string> }, index: number, options: StateSyncOptions, skip: Set<string>): Promise<{ chunk: Uint8Array; sender: string }> {
    for (let attempt = 0; attempt < 10; attempt++) {
      const peers = [...entry.peers].filter((p) => !skip.has(p));
      if (peers.length === 0) throw new ConsensusError('TIMEOUT', `statesync: no peer left to fetch chunk ${index} of snapshot ${entry.snapshot.height}`);
      const peer = peers[(index + attempt) % peers.length]!;
      const got = await this.requestChunk(peer, entry.snapshot, index, options.chunkRequestTimeoutMs);
      if (got) return got;
      this.logger.debug('chunk not received; trying another peer', { index, peer });
    }
    throw new ConsensusError('TIMEOUT', `statesync: could not fetch chunk ${index} of snapshot ${entry.snapshot.height}`);
  }

  /** Run state sync to completion; throws when no snapshot can be restored. */
  async sync(lightClient: LightClient, chainId: string, initialHeight: number, options: StateSyncOptions): Promise<StateSyncResult> {
    const app = this.app;
    if (!app) throw new ConsensusError('HANDSHAKE', 'statesync: the app does not support snapshots');
    this.syncing = true;
    try {
      for (let round = 0; ; round++) {
        this.sw?.broadcast(SNAPSHOT_CHANNEL, encodeStatesyncMessage({ type: 'snapshotsRequest' }));
        this.logger.info('discovering snapshots', { forMs: options.discoveryTimeMs });
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, options.discoveryTimeMs);
          this.wakeDiscovery = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wakeDiscovery = undefined;
        if (this.stopped) throw new ConsensusError('STOPPED', 'statesync stopped');
        const candidates = [...this.snapshots.entries()]
          .filter(([key, e]) => !this.rejected.has(key) && e.peers.size > 0)
          .sort(([, a], [, b]) => b.snapshot.height - a.snapshot.height || b.snapshot.format - a.snapshot.format);
        if (candidates.length === 0) {
          if (round >= 20) throw new ConsensusError('TIMEOUT', 'statesync: no snapshot found on any peer');
          this.logger.info('no snapshots found yet; retrying');
          continue;
        }
        for (const [key, entry] of candidates) {
          const restored = await this.tryRestore(app, lightClient, entry, options);
          if (restored === 'rejected') {
            this.rejected.add(key);
            continue;
          }
          if (restored === 'later') continue;
          const height = entry.snapshot.height;
          return { state: await stateFromLightClient(lightClient, chainId, initialHeight, height), commit: (await lightClient.verifyLightBlockAtHeight(height)).commit };
        }
      }
    } finally {
      this.syncing = false;
    }
  }

  private async tryRestore(app: SnapshotApplication, lightClient: LightClient, entry: { snapshot: Snapshot; peers: Set<string> }, options: StateSyncOptions): Promise<'restored' | 'rejected' | 'later'> {
    const snapshot = entry.snapshot;
    let appHash: Uint8Array;
    try {
      appHash = (await lightClient.verifyLightBlockAtHeight(snapshot.height + 1)).header.appHash;
      await lightClient.verifyLightBlockAtHeight(snapshot.height + 2);
    } catch (err) {
      this.logger.info('cannot verify the app hash of a snapshot yet; skipping it', { height: snapshot.height, err: (err as Error).message });
      return 'rejected';
    }
    const offer = await app.offerSnapshot({ snapshot, appHash });
    if (offer.result === 'abort') throw new ConsensusError('HANDSHAKE', 'statesync: the app aborted the restore');
    if (offer.result !== 'accept') {
      this.logger.info('snapshot rejected by the app', { height: snapshot.height, result: offer.result });
      return 'rejected';
    }
    this.logger.info('fetching snapshot chunks', { height: snapshot.height, chunks: snapshot.chunks, peers: entry.peers.size });
    const banned = new Set<string>();
    const fetched = new Map<number, Promise<{ chunk: Uint8Array; sender: string }>>();
    const window = Math.max(1, options.chunkFetchers);
    const fetch = (i: number): Promise<{ chunk: Uint8Array; sender: string }> => {
      let p = fetched.get(i);
      if (!p) {
        p = this.fetchChunk(entry, i, options, banned);
        fetched.set(i, p);
      }
      return p;
    };
    for (let index = 0; index < snapshot.chunks; ) {
      for (let j = index; j < Math.min(snapshot.chunks, index + window); j++) void fetch(j).catch(() => undefined);
      let got: { chunk: Uint8Array; sender: string };
      try {
        got = await fetch(index);
      } catch (err) {
        // No peer has the chunk now (pruned, peers gone or banned): try another snapshot, and this
        // one again in a later round if peers offer it.
        this.logger.info('cannot fetch snapshot chunks now; trying other snapshots', { height: snapshot.height, err: (err as Error).message });
        return 'later';
      }
      const { chunk, sender } = got;
      const res = await app.applySnapshotChunk({ index, chunk, sender });
      for (const peerId of res.rejectSenders) {
        banned.add(peerId);
        entry.peers.delete(peerId);
        const peer = this.sw?.peer(peerId);
        this.logger.error('snapshot chunk rejected; banning its sender', { peer: peerId, height: snapshot.height, index });
        if (peer) this.sw?.stopPeerForError(peer, new P2PError('MISBEHAVIOUR', `statesync: sent snapshot ${snapshot.height} chunk ${index} that does not hash to the advertised value`));
      }
      for (const i of res.refetchChunks) fetched.delete(i);
      switch (res.result) {
        case 'accept':
          index++;
          break;
        case 'retry':
          if (res.refetchChunks.length === 0) fetched.delete(index);
          break;
        case 'retry_snapshot':
        case 'reject_snapshot':
          throw new ConsensusError('HANDSHAKE', `statesync: snapshot ${snapshot.height} could not be restored (${res.result}); restart the node to try again`);
        default:
          throw new ConsensusError('HANDSHAKE', `statesync: the app aborted the restore of snapshot ${snapshot.height} (${res.result})`);
      }
    }
    return 'restored';
  }
}
