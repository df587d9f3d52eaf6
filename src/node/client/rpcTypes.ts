/**
 * The JSON results of the CometBFT 0.38 RPC as tokend's server writes them (COMPAT §1.4):
 * int64 as decimal strings, hashes as uppercase hex, bytes as base64.
 */
import type {
  BlockIdJson,
  BlockJson,
  CommitJson,
  ConsensusParamsJson,
  EventJson,
  ExecTxResultJson,
  HeaderJson,
  PubKeyJson,
  ValidatorJson,
  ValidatorUpdateJson,
} from '../consensus/json.js';

export type { BlockIdJson, BlockJson, CommitJson, ConsensusParamsJson, EventJson, ExecTxResultJson, HeaderJson, PubKeyJson, ValidatorJson };

export type HealthResult = Record<string, never>;

export interface NodeInfoResult {
  protocol_version: { p2p: string; block: string; app: string };
  id: string;
  listen_addr: string;
  network: string;
  version: string;
  channels: string;
  moniker: string;
  other: { tx_index: string; rpc_address: string };
}

export interface StatusResult {
  node_info: NodeInfoResult;
  sync_info: {
    latest_block_hash: string;
    latest_app_hash: string;
    latest_block_height: string;
    latest_block_time: string;
    earliest_block_hash: string;
    earliest_app_hash: string;
    earliest_block_height: string;
    earliest_block_time: string;
    catching_up: boolean;
  };
  validator_info: { address: string; pub_key: PubKeyJson; voting_power: string };
}

export interface NetInfoResult {
  listening: boolean;
  listeners: string[];
  n_peers: string;
  peers: { node_info: NodeInfoResult; is_outbound: boolean; connection_status: unknown; remote_ip: string }[];
}

export interface BlockMetaJson {
  block_id: BlockIdJson;
  block_size: string;
  header: HeaderJson;
  num_txs: string;
}

export interface BlockchainResult {
  last_height: string;
  block_metas: BlockMetaJson[];
}

export interface GenesisResult {
  genesis: {
    genesis_time: string;
    chain_id: string;
    initial_height: string;
    consensus_params: ConsensusParamsJson;
    validators: { address: string; pub_key: PubKeyJson; power: string; name: string }[];
    app_hash: string;
    app_state?: unknown;
  };
}

export interface GenesisChunkResult {
  chunk: string;
  total: string;
  data: string;
}

export interface BlockResult {
  block_id: BlockIdJson;
  block: BlockJson | null;
}

export interface BlockResultsResult {
  height: string;
  txs_results: ExecTxResultJson[] | null;
  finalize_block_events: EventJson[];
  validator_updates: ValidatorUpdateJson[] | null;
  consensus_param_updates: ConsensusParamsJson | null;
  app_hash: string;
}

export interface CommitResult {
  signed_header: { header: HeaderJson; commit: CommitJson };
  canonical: boolean;
}

export interface HeaderResult {
  header: HeaderJson | null;
}

export interface ValidatorsResult {
  block_height: string;
  validators: ValidatorJson[];
  count: string;
  total: string;
}

export interface ConsensusParamsResult {
  block_height: string;
  consensus_params: ConsensusParamsJson;
}

export interface UnconfirmedTxsResult {
  n_txs: string;
  total: string;
  total_bytes: string;
  txs: string[] | null;
}

export interface CheckTxResult {
  code: number;
  data: string | null;
  log: string;
  info: string;
  gas_wanted: string;
  gas_used: string;
  events: EventJson[];
  codespace: string;
}

export interface BroadcastTxResult {
  code: number;
  /** Hex (HexBytes). */
  data: string;
  log: string;
  codespace: string;
  hash: string;
}

export interface BroadcastTxCommitResult {
  check_tx: CheckTxResult;
  tx_result: ExecTxResultJson;
  hash: string;
  height: string;
}

export interface AbciInfoResult {
  response: { data?: string; version?: string; app_version?: string; last_block_height?: string; last_block_app_hash?: string };
}

export interface AbciQueryResult {
  response: {
    code: number;
    log: string;
    info: string;
    index: string;
    key: string | null;
    value: string | null;
    proofOps: { ops: { type: string; key: string | null; data: string | null }[] } | null;
    height: string;
    codespace: string;
  };
}

export interface TxProofJson {
  root_hash: string;
  data: string;
  proof: { total: string; index: string; leaf_hash: string; aunts?: string[] };
}

export interface TxResult {
  hash: string;
  height: string;
  index: number;
  tx_result: ExecTxResultJson;
  tx: string;
  proof?: TxProofJson;
}

export interface TxSearchResult {
  txs: TxResult[];
  total_count: string;
}

export interface BlockSearchResult {
  blocks: { block_id: BlockIdJson; block: BlockJson }[];
  total_count: string;
}

export interface ConsensusStateResult {
  round_state: Record<string, unknown>;
}

export interface DumpConsensusStateResult {
  round_state: Record<string, unknown>;
  peers: unknown[];
}

export interface BroadcastEvidenceResult {
  hash: string;
}

export type OrderBy = 'asc' | 'desc';
