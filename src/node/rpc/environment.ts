/**
 * The RPC environment (CometBFT rpc/core/env.go): the narrow readers the route handlers use, and
 * nothing of the engine's internals. The node's composition root builds one from the consensus
 * subsystem, the app and the indexer service:
 *
 *   const env: RpcEnvironment = {
 *     blockStore: consensus.blockStore, stateStore: consensus.stateStore, mempool: consensus.mempool,
 *     app, genesis: consensus.genesis, status: () => consensus.status(), roundState: () => consensus.roundState(),
 *     eventBus: indexer.eventBus,            // events after indexing, not consensus.eventBus
 *     txIndexer: indexer.txIndexer, blockIndexer: indexer.blockIndexer,
 *     nodeInfo: () => ({ id, moniker, network: chainId, listenAddr, … }),
 *   };
 */
import type { RequestCheckTx, RequestInfo, RequestQuery, ResponseCheckTx, ResponseInfo, ResponseQuery } from '../abci/types.js';
import type { EventBusReader } from '../consensus/events.js';
import type { ConsensusStatus, RoundStateSummary } from '../consensus/index.js';
import type { MempoolReader } from '../consensus/mempool/mempool.js';
import type { BlockStoreReader } from '../consensus/store/blockStore.js';
import type { StateStoreReader } from '../consensus/store/stateStore.js';
import type { GenesisDoc } from '../consensus/types/genesis.js';
import type { Block, BlockId } from '../consensus/types/block.js';
import type { BlockIndexer, TxIndexer } from '../indexer/types.js';
import type { HealthReport } from '../health.js';
import type { VerifyJob } from '../app/sigverify.js';
import type { DecodedTx } from '../app/tx.js';

/** The app connections the RPC uses: query (abci_query, abci_info) and mempool (check_tx). */
export interface RpcApp {
  info(request: RequestInfo): Promise<ResponseInfo>;
  query(request: RequestQuery): Promise<ResponseQuery>;
  checkTx(request: RequestCheckTx): Promise<ResponseCheckTx>;
  /** The address an `eth_recover` job recovers to, worked out off the main thread (App.recoverEthSender); optional. */
  recoverEthSender?(job: VerifyJob): Promise<Uint8Array | undefined>;
  /** Takes the decoding of tx bytes the caller built itself (App.rememberDecodedTx); optional. */
  rememberDecodedTx?(tx: DecodedTx): void;
}

/** p2p DefaultNodeInfo as `status` and `net_info` show it. */
export interface NodeInfo {
  /** Node ID: lowercase hex of the node key's address. */
  id: string;
  /** P2P listen address ("tcp://0.0.0.0:26656"). */
  listenAddr: string;
  /** The chain id. */
  network: string;
  /** CometBFT version this node is compatible with; CosmJS needs "0.38.*". Default: COMPAT_COMETBFT_VERSION. */
  version?: string;
  /** Reactor channels as hex; default CometBFT's "40202122233038606100". */
  channels?: string;
  moniker: string;
  /** protocol_version; defaults p2p 8, block 11, app 0. */
  protocolVersion?: { p2p?: bigint; block?: bigint; app?: bigint };
  /** node_info.other as the node announced it (a peer's); our own is filled by the RPC. */
  other?: { txIndex: string; rpcAddress: string };
}

/** libs/flowrate Status of one direction of a peer connection. */
export interface FlowStatusInfo {
  startMs: number;
  bytes: number;
  curRate: number;
  avgRate: number;
  peakRate: number;
  durationMs: number;
  idleMs: number;
}

/** p2p.ConnectionStatus of a peer (net_info connection_status). */
export interface ConnectionStatusInfo {
  durationMs: number;
  sendMonitor: FlowStatusInfo;
  recvMonitor: FlowStatusInfo;
  channels: { id: number; sendQueueCapacity: number; sendQueueSize: number; priority: number; recentlySent: number }[];
}

export interface PeerInfo {
  nodeInfo: NodeInfo;
  isOutbound: boolean;
  remoteIp: string;
  connectionStatus?: ConnectionStatusInfo;
}

/** The unsafe p2p routes (dial_seeds, dial_peers): served only with [rpc] unsafe = true. */
export interface P2PControl {
  /** Dial seeds (`id@host:port` each); throws on a malformed address. */
  dialSeeds(addresses: string[]): void;
  dialPeers(addresses: string[], options: { persistent: boolean; unconditional: boolean; private: boolean }): void;
}

export interface NetInfo {
  listening: boolean;
  listeners: string[];
  peers: PeerInfo[];
}

export interface RpcEnvironment {
  blockStore: BlockStoreReader;
  stateStore: StateStoreReader;
  app: RpcApp;
  mempool: MempoolReader;
  /** Subscriptions and broadcast_tx_commit; pass the indexer's relay so events follow indexing. */
  eventBus: EventBusReader;
  genesis: GenesisDoc;
  /** sync_info and validator_info of `status`. */
  status(): ConsensusStatus;
  nodeInfo(): NodeInfo;
  /** Peers; default: listening on nodeInfo().listenAddr with no peers. */
  netInfo?(): NetInfo;
  /** Dialing for the unsafe routes. */
  p2p?: P2PControl;
  /** A block below the local base, fetched from peers and verified against the stored header chain. */
  fetchBlock?(height: number): Promise<{ block: Block; blockId: BlockId }>;
  /** consensus_state / dump_consensus_state; undefined before consensus starts. */
  roundState?(): RoundStateSummary | undefined;
  txIndexer: TxIndexer;
  blockIndexer: BlockIndexer;
  /** The node's health (`health` errors and `/ready` answers 503 while unhealthy); absent: always healthy. */
  health?(): HealthReport;
  /** Index stored blocks the indexer has not indexed yet (tx lookups call it before answering "not found"). */
  catchUpIndex?(): Promise<void>;
}
