/**
 * DefaultNodeInfo (p2p/node_info.go): what two nodes exchange, as a length-prefixed
 * tendermint.p2p.DefaultNodeInfo, right after the secret connection is up. A peer is compatible
 * when it runs the same block protocol version on the same network (chain id) and shares at least
 * one channel with us.
 */
import { ProtoWriter, encodeProto, readMessage } from '../consensus/types/proto.js';
import { P2PError } from './errors.js';
import { parseListenAddress, validateNodeId } from './netAddress.js';

/** Largest node info accepted (maxNodeInfoSize). */
export const MAX_NODE_INFO_BYTES = 10240;
const MAX_NUM_CHANNELS = 16;

export interface ProtocolVersion {
  p2p: bigint;
  block: bigint;
  app: bigint;
}

export interface NodeInfo {
  protocolVersion: ProtocolVersion;
  /** Node ID: lowercase hex of the node key's address. */
  id: string;
  /** Where the node accepts connections (host:port, or tcp://host:port). */
  listenAddr: string;
  /** The chain id. */
  network: string;
  /** Software version (CometBFT's compatible version string). */
  version: string;
  /** One byte per reactor channel. */
  channels: Uint8Array;
  moniker: string;
  other: { txIndex: string; rpcAddress: string };
}

export function encodeNodeInfo(info: NodeInfo): Uint8Array {
  return encodeProto((w: ProtoWriter) => {
    w.messageAlways(1, (x) => {
      x.varintField(1, info.protocolVersion.p2p);
      x.varintField(2, info.protocolVersion.block);
      x.varintField(3, info.protocolVersion.app);
    });
    w.stringField(2, info.id);
    w.stringField(3, info.listenAddr);
    w.stringField(4, info.network);
    w.stringField(5, info.version);
    w.bytesField(6, info.channels);
    w.stringField(7, info.moniker);
    w.messageAlways(8, (x) => {
      x.stringField(1, info.other.txIndex);
      x.stringField(2, info.other.rpcAddress);
    });
  });
}

export function decodeNodeInfo(bytes: Uint8Array): NodeInfo {
  const info: NodeInfo = {
    protocolVersion: { p2p: 0n, block: 0n, app: 0n },
    id: '',
    listenAddr: '',
    network: '',
    version: '',
    channels: new Uint8Array(0),
    moniker: '',
    other: { txIndex: '', rpcAddress: '' },
  };
  readMessage(bytes, (field, wire, r) => {
    if (field === 1 && wire === 2) {
      readMessage(r.bytes(), (f, wt, rr) => {
        if (wt !== 0) return rr.skip(wt);
        if (f === 1) info.protocolVersion.p2p = rr.uvarint64();
        else if (f === 2) info.protocolVersion.block = rr.uvarint64();
        else if (f === 3) info.protocolVersion.app = rr.uvarint64();
        else rr.skip(wt);
      });
    } else if (field === 2 && wire === 2) info.id = r.string();
    else if (field === 3 && wire === 2) info.listenAddr = r.string();
    else if (field === 4 && wire === 2) info.network = r.string();
    else if (field === 5 && wire === 2) info.version = r.string();
    else if (field === 6 && wire === 2) info.channels = r.bytes().slice();
    else if (field === 7 && wire === 2) info.moniker = r.string();
    else if (field === 8 && wire === 2) {
      readMessage(r.bytes(), (f, wt, rr) => {
        if (f === 1 && wt === 2) info.other.txIndex = rr.string();
        else if (f === 2 && wt === 2) info.other.rpcAddress = rr.string();
        else rr.skip(wt);
      });
    } else r.skip(wire);
  });
  return info;
}

/** Printable ASCII without tabs (IsASCIIText). */
function isAsciiText(s: string): boolean {
  return s.length > 0 && /^[\x20-\x7e]*$/.test(s);
}

/** Validate a peer's node info (DefaultNodeInfo.Validate). */
export function validateNodeInfo(info: NodeInfo): void {
  const fail = (msg: string): never => {
    throw new P2PError('HANDSHAKE', msg);
  };
  try {
    validateNodeId(info.id);
  } catch (err) {
    fail(`info.ID: ${(err as Error).message}`);
  }
  try {
    parseListenAddress(info.listenAddr);
  } catch {
    fail(`info.ListenAddr ${JSON.stringify(info.listenAddr)} is not a host:port address`);
  }
  if (info.version.length > 0 && (!isAsciiText(info.version) || info.version.trim() === '')) {
    fail(`info.Version must be valid ASCII text without tabs, but got ${info.version}`);
  }
  if (info.channels.length > MAX_NUM_CHANNELS) fail(`info.Channels is too long (${info.channels.length}). Max is ${MAX_NUM_CHANNELS}`);
  if (new Set(info.channels).size !== info.channels.length) fail('info.Channels contains duplicate channel id');
  if (!isAsciiText(info.moniker) || info.moniker.trim() === '') fail(`info.Moniker must be valid non-empty ASCII text without tabs, but got ${info.moniker}`);
  if (!['', 'on', 'off'].includes(info.other.txIndex)) fail(`info.Other.TxIndex should be either 'on', 'off', or empty string, got '${info.other.txIndex}'`);
  const rpc = info.other.rpcAddress;
  if (rpc.length > 0 && (!isAsciiText(rpc) || rpc.trim() === '')) fail(`info.Other.RPCAddress=${rpc} must be valid ASCII text without tabs`);
}

/** Throws INCOMPATIBLE when `other` cannot be our peer (DefaultNodeInfo.CompatibleWith). */
export function checkCompatible(ours: NodeInfo, other: NodeInfo): void {
  if (ours.protocolVersion.block !== other.protocolVersion.block) {
    throw new P2PError('INCOMPATIBLE', `peer is on a different Block version. Got ${other.protocolVersion.block}, expected ${ours.protocolVersion.block}`);
  }
  if (ours.network !== other.network) {
    throw new P2PError('INCOMPATIBLE', `peer is on a different network. Got ${other.network}, expected ${ours.network}`);
  }
  if (ours.channels.length === 0) return;
  if (!ours.channels.some((ch) => other.channels.includes(ch))) {
    throw new P2PError('INCOMPATIBLE', `peer has no common channels. Our channels: ${Buffer.from(ours.channels).toString('hex')} ; Peer channels: ${Buffer.from(other.channels).toString('hex')}`);
  }
}

/** The address peers should dial to reach the node described by `info`. */
export function nodeInfoNetAddress(info: NodeInfo): { id: string; host: string; port: number } {
  const { host, port } = parseListenAddress(info.listenAddr);
  return { id: info.id, host, port };
}

export function hasChannel(info: NodeInfo, channelId: number): boolean {
  return info.channels.includes(channelId);
}
