/** Build the RPC environment from the node's subsystems (a convenience for the composition root). */
import type { Consensus } from '../consensus/index.js';
import type { BlockIndexer, TxIndexer } from '../indexer/types.js';
import type { EventBusReader } from '../consensus/events.js';
import type { NetInfo, NodeInfo, P2PControl, RpcApp, RpcEnvironment } from './environment.js';

export interface RpcWiring {
  consensus: Pick<Consensus, 'blockStore' | 'stateStore' | 'mempool' | 'genesis' | 'status' | 'roundState'>;
  app: RpcApp;
  /** The IndexerService (its relay bus delivers events after indexing). */
  indexer: { txIndexer: TxIndexer; blockIndexer: BlockIndexer; eventBus: EventBusReader };
  nodeInfo: NodeInfo | (() => NodeInfo);
  netInfo?: () => NetInfo;
  p2p?: P2PControl;
  fetchBlock?: RpcEnvironment['fetchBlock'];
  health?: RpcEnvironment['health'];
}

export function rpcEnvironment(w: RpcWiring): RpcEnvironment {
  const nodeInfo = w.nodeInfo;
  const env: RpcEnvironment = {
    blockStore: w.consensus.blockStore,
    stateStore: w.consensus.stateStore,
    mempool: w.consensus.mempool,
    genesis: w.consensus.genesis,
    app: w.app,
    eventBus: w.indexer.eventBus,
    txIndexer: w.indexer.txIndexer,
    blockIndexer: w.indexer.blockIndexer,
    status: () => w.consensus.status(),
    roundState: () => w.consensus.roundState(),
    nodeInfo: typeof nodeInfo === 'function' ? nodeInfo : () => nodeInfo,
  };
  if (w.netInfo) env.netInfo = w.netInfo;
  if (w.p2p) env.p2p = w.p2p;
  if (w.fetchBlock) env.fetchBlock = w.fetchBlock;
  if (w.health) env.health = w.health;
  const indexer = w.indexer as { catchUpIndex?: () => Promise<void> };
  if (indexer.catchUpIndex) env.catchUpIndex = () => indexer.catchUpIndex!();
  return env;
}
