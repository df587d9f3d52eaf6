/**
 * The p2p subsystem's entry point: one `P2PNode` per node builds the transport (TCP, or the
 * in-memory network in tests), the switch, the address book and the PEX reactor from
 * `P2POptions`; other reactors (consensus, mempool, evidence, block sync, state sync) are added
 * with `addReactor` before `start()`.
 *
 *   const p2p = new P2PNode({ nodeKey, network: chainId, moniker, options, logger });
 *   p2p.addReactor(consensusReactor);
 *   await p2p.start();          // listen, dial persistent peers and seeds, run PEX
 *   p2p.netInfo();              // net_info
 *   await p2p.stop();
 */
import { join, isAbsolute } from 'node:path';
import { BLOCK_PROTOCOL, P2P_PROTOCOL } from '../consensus/types/block.js';
import type { NodeKey } from '../consensus/privval.js';
import type { Logger } from '../logger.js';
import { childLogger, nullLogger } from '../logger.js';
import { defaultMConnectionOptions, type ConnectionStatus } from './conn/mconnection.js';
import { P2PError } from './errors.js';
import type { MemoryNetwork } from './memory.js';
import { formatNetAddress, parseListenAddress, parseNetAddress, parseNetAddressList, parseNodeIdList, type NetAddress } from './netAddress.js';
import type { NodeInfo } from './nodeInfo.js';
import { defaultP2POptions, type P2POptions } from './options.js';
import { AddrBook } from './pex/addrBook.js';
import { DEFAULT_ENSURE_PEERS_PERIOD_MS, PexReactor } from './pex/reactor.js';
import { Switch, type Reactor } from './switch.js';
import { TcpTransport, type Transport } from './transport.js';

export interface P2PNodeConfig {
  nodeKey: NodeKey;
  /** The chain id. */
  network: string;
  moniker: string;
  /** Software version announced in node info. */
  version: string;
  appVersion?: bigint;
  options?: Partial<P2POptions>;
  /** Home directory (for addr_book_file); undefined keeps the address book in memory. */
  home?: string;
  txIndex?: 'on' | 'off';
  rpcAddress?: string;
  logger?: Logger;
  /** Tests: run over an in-memory network instead of TCP. */
  memoryNetwork?: MemoryNetwork;
  /** Tests: a shorter PEX period. */
  ensurePeersPeriodMs?: number;
}

export interface PeerSummary {
  nodeInfo: NodeInfo;
  isOutbound: boolean;
  remoteIp: string;
  connectionStatus: ConnectionStatus;
}

export interface NetInfoSummary {
  listening: boolean;
  listeners: string[];
  peers: PeerSummary[];
}

/** Parse and check every address-like p2p setting; throws one clear error naming the setting. */
export function validateP2POptions(options: P2POptions): { persistentPeers: NetAddress[]; seeds: NetAddress[]; privateIds: string[]; unconditionalIds: string[] } {
  if (options.laddr) {
    try {
      parseListenAddress(options.laddr);
    } catch (err) {
      throw new P2PError('INVALID_ADDRESS', `config.toml p2p.laddr: ${(err as Error).message}`, { hint: 'use tcp://host:port' });
    }
  }
  if (options.externalAddress) {
    try {
      parseListenAddress(options.externalAddress);
    } catch (err) {
      throw new P2PError('INVALID_ADDRESS', `config.toml p2p.external_address: ${(err as Error).message}`, { hint: 'use host:port (or tcp://host:port)' });
    }
  }
  return {
    persistentPeers: parseNetAddressList(options.persistentPeers, 'persistent_peers'),
    seeds: parseNetAddressList(options.seeds, 'seeds'),
    privateIds: parseNodeIdList(options.privatePeerIds, 'private_peer_ids'),
    unconditionalIds: parseNodeIdList(options.unconditionalPeerIds, 'unconditional_peer_ids'),
  };
}

export class P2PNode {
  readonly options: P2POptions;
  readonly switch: Switch;
  readonly addrBook: AddrBook;
  readonly pex: PexReactor | undefined;
  private readonly transport: Transport;
  private readonly logger: Logger;
  private listenAddr = '';
  private listening = false;
  private info: NodeInfo;

  constructor(private readonly config: P2PNodeConfig) {
    this.options = { ...defaultP2POptions, ...config.options };
    this.logger = config.logger ?? nullLogger;
    const parsed = validateP2POptions(this.options);
    this.info = {
      protocolVersion: { p2p: P2P_PROTOCOL, block: BLOCK_PROTOCOL, app: config.appVersion ?? 0n },
      id: config.nodeKey.id,
      listenAddr: this.options.externalAddress || this.options.laddr,
      network: config.network,
      version: config.version,
      channels: new Uint8Array(0),
      moniker: config.moniker,
      other: { txIndex: config.txIndex ?? 'on', rpcAddress: config.rpcAddress ?? '' },
    };
    this.listenAddr = this.info.listenAddr;
    const nodeInfo = (): NodeInfo => this.info;
    this.transport = config.memoryNetwork
      ? config.memoryNetwork.transport(nodeInfo)
      : new TcpTransport(config.nodeKey, nodeInfo, {
          handshakeTimeoutMs: this.options.handshakeTimeoutMs,
          dialTimeoutMs: this.options.dialTimeoutMs,
          mconnection: {
            ...defaultMConnectionOptions,
            sendRateBytesPerS: this.options.sendRate,
            recvRateBytesPerS: this.options.recvRate,
            maxPacketMsgPayloadSize: this.options.maxPacketMsgPayloadSize,
            flushThrottleMs: this.options.flushThrottleTimeoutMs,
          },
        });
    this.switch = new Switch(
      this.transport,
      nodeInfo,
      {
        maxNumInboundPeers: this.options.maxNumInboundPeers,
        maxNumOutboundPeers: this.options.maxNumOutboundPeers,
        persistentPeers: parsed.persistentPeers,
        unconditionalPeerIds: parsed.unconditionalIds,
        allowDuplicateIp: this.options.allowDuplicateIp,
        persistentPeersMaxDialPeriodMs: this.options.persistentPeersMaxDialPeriodMs,
        banDurationMs: this.options.banDurationMs,
      },
      childLogger(this.logger, { module: 'p2p' }),
    );
    const bookPath = config.home && this.options.addrBookFile ? (isAbsolute(this.options.addrBookFile) ? this.options.addrBookFile : join(config.home, this.options.addrBookFile)) : undefined;
    this.addrBook = new AddrBook({ filePath: bookPath, strict: this.options.addrBookStrict, privateIds: parsed.privateIds }, childLogger(this.logger, { module: 'addrbook' }));
    for (const addr of [...parsed.persistentPeers, ...parsed.seeds]) this.addrBook.addAddress(addr, addr);
    this.switch.setAddressBook({
      markGood: (id) => this.addrBook.markGood(id),
      markAttempt: (addr) => this.addrBook.markAttempt(addr),
      markBad: (addr, ms) => this.addrBook.markBad(addr, ms),
      removeAddress: (addr) => this.addrBook.removeAddress(addr),
    });
    if (this.options.pex) {
      this.pex = new PexReactor(
        this.addrBook,
        { seedMode: this.options.seedMode, seeds: parsed.seeds, ensurePeersPeriodMs: config.ensurePeersPeriodMs ?? DEFAULT_ENSURE_PEERS_PERIOD_MS, banDurationMs: this.options.banDurationMs },
        childLogger(this.logger, { module: 'pex' }),
      );
      this.switch.addReactor(this.pex);
    }
  }

  get nodeId(): string {
    return this.config.nodeKey.id;
  }

  addReactor(reactor: Reactor): void {
    this.switch.addReactor(reactor);
  }

  /** IDs of connected peers. */
  peerIds(): string[] {
    return this.switch.peers().map((p) => p.id);
  }

  nodeInfo(): NodeInfo {
    return this.info;
  }

  /** Listen (when laddr is set), then dial persistent peers and run PEX. */
  async start(): Promise<void> {
    this.info = { ...this.info, channels: Uint8Array.from(this.switch.channelIds()) };
    if (this.options.laddr) {
      const { host, port } = parseListenAddress(this.options.laddr);
      const bound = await this.transport.listen(host, port);
      this.listening = true;
      this.listenAddr = `tcp://${host}:${bound.port}`;
      if (!this.options.externalAddress) this.info = { ...this.info, listenAddr: port === 0 ? `tcp://${host}:${bound.port}` : this.options.laddr };
      this.logger.info('p2p listening', { module: 'p2p', laddr: this.listenAddr, nodeId: this.nodeId });
    }
    await this.switch.start();
  }

  async stop(): Promise<void> {
    await this.switch.stop();
    this.addrBook.save();
  }

  /** The address other nodes dial to reach this one (`id@host:port`). */
  dialAddress(): string {
    const { host, port } = parseListenAddress(this.listenAddr || this.info.listenAddr);
    return formatNetAddress({ id: this.nodeId, host: host === '0.0.0.0' ? '127.0.0.1' : host, port });
  }

  netInfo(): NetInfoSummary {
    return {
      listening: this.listening,
      listeners: this.listening ? [`Listener(@${this.info.listenAddr.replace(/^[a-z]+:\/\//, '')})`] : [],
      peers: this.switch.peers().map((p) => ({ nodeInfo: p.nodeInfo, isOutbound: p.isOutbound, remoteIp: p.remoteIp, connectionStatus: p.status() })),
    };
  }

  /** unsafe dial_seeds / dial_peers. */
  dial(addresses: string[], options: { persistent: boolean; seeds: boolean }): void {
    const addrs = addresses.map((a) => parseNetAddress(a));
    if (options.seeds) {
      for (const a of addrs) this.addrBook.addAddress(a, a);
    }
    this.switch.dialPeersAsync(addrs, options.persistent);
  }
}

export { P2PError, isP2PError, banWorthy } from './errors.js';
export type { P2POptions } from './options.js';
export { defaultP2POptions } from './options.js';
export { MemoryNetwork } from './memory.js';
export { Switch, type Reactor, type Switchboard } from './switch.js';
export { Peer } from './peer.js';
export type { NodeInfo } from './nodeInfo.js';
export type { ChannelDescriptor } from './conn/mconnection.js';
export { parseNetAddress, formatNetAddress, type NetAddress } from './netAddress.js';
