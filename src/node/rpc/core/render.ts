/**
 * JSON renderers the RPC needs beyond consensus/json.ts: ABCI responses in protobuf-JSON
 * (EmitDefaults), node info, transactions and the websocket event payloads (COMPAT §1.3–§1.6).
 */
import type { ExecTxResult, ResponseCheckTx, ResponseInfo, ResponseQuery } from '../../abci/types.js';
import type { ConsensusEvent } from '../../consensus/events.js';
import {
  renderBlock,
  renderBlockId,
  renderEvent,
  renderExecTxResult,
  renderFinalizeBlockResponse,
  renderHeader,
  renderTxProof,
  renderValidator,
  renderVote,
  type EventJson,
  type ExecTxResultJson,
} from '../../consensus/json.js';
import { P2P_PROTOCOL, BLOCK_PROTOCOL, txProof, type Block } from '../../consensus/types/block.js';
import { toBase64, toHexUpper } from '../../consensus/types/bytes.js';
import type { IndexedTx } from '../../indexer/types.js';
import { COMPAT_COMETBFT_VERSION } from '../../version/version.js';
import type { ConnectionStatusInfo, FlowStatusInfo, NodeInfo } from '../environment.js';

/** CometBFT's reactor channel list (node_info.channels). */
export const DEFAULT_CHANNELS = '40202122233038606100';

export interface NodeInfoJson {
  protocol_version: { p2p: string; block: string; app: string };
  id: string;
  listen_addr: string;
  network: string;
  version: string;
  channels: string;
  moniker: string;
  other: { tx_index: string; rpc_address: string };
}

export function renderNodeInfo(info: NodeInfo, txIndex: boolean, rpcAddress: string): NodeInfoJson {
  return {
    protocol_version: {
      p2p: String(info.protocolVersion?.p2p ?? P2P_PROTOCOL),
      block: String(info.protocolVersion?.block ?? BLOCK_PROTOCOL),
      app: String(info.protocolVersion?.app ?? 0n),
    },
    id: info.id,
    listen_addr: info.listenAddr,
    network: info.network,
    version: info.version ?? COMPAT_COMETBFT_VERSION,
    channels: info.channels ?? DEFAULT_CHANNELS,
    moniker: info.moniker,
    other: info.other ? { tx_index: info.other.txIndex, rpc_address: info.other.rpcAddress } : { tx_index: txIndex ? 'on' : 'off', rpc_address: rpcAddress },
  };
}

function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.000Z$/, 'Z');
}

const NS_PER_MS = 1_000_000;

/** flowrate.Status as cmtjson writes it (int64 and durations as strings, times RFC 3339). */
function renderFlowStatus(f: FlowStatusInfo): Record<string, unknown> {
  return {
    Start: rfc3339(f.startMs),
    Bytes: String(f.bytes),
    Samples: '0',
    InstRate: String(f.curRate),
    CurRate: String(f.curRate),
    AvgRate: String(f.avgRate),
    PeakRate: String(f.peakRate),
    BytesRem: '0',
    Duration: String(f.durationMs * NS_PER_MS),
    Idle: String(f.idleMs * NS_PER_MS),
    TimeRem: '0',
    Progress: 0,
    Active: f.idleMs < 2000,
  };
}

/** p2p.ConnectionStatus (net_info peers[].connection_status). */
export function renderConnectionStatus(c: ConnectionStatusInfo | undefined): Record<string, unknown> {
  if (!c) return { Duration: '0', SendMonitor: {}, RecvMonitor: {}, Channels: [] };
  return {
    Duration: String(c.durationMs * NS_PER_MS),
    SendMonitor: renderFlowStatus(c.sendMonitor),
    RecvMonitor: renderFlowStatus(c.recvMonitor),
    Channels: c.channels.map((ch) => ({
      ID: ch.id,
      SendQueueCapacity: String(ch.sendQueueCapacity),
      SendQueueSize: String(ch.sendQueueSize),
      Priority: String(ch.priority),
      RecentlySent: String(ch.recentlySent),
    })),
  };
}

/** bytes as protobuf-JSON: base64, null when empty (nil). */
function bytesOrNull(b: Uint8Array): string | null {
  return b.length === 0 ? null : toBase64(b);
}

export interface CheckTxJson {
  code: number;
  data: string | null;
  log: string;
  info: string;
  gas_wanted: string;
  gas_used: string;
  events: EventJson[];
  codespace: string;
}

/** ResponseCheckTx (jsonpb, defaults emitted). */
export function renderCheckTx(r: ResponseCheckTx): CheckTxJson {
  return {
    code: r.code,
    data: bytesOrNull(r.data),
    log: r.log,
    info: r.info,
    gas_wanted: r.gasWanted.toString(),
    gas_used: r.gasUsed.toString(),
    events: r.events.map(renderEvent),
    codespace: r.codespace,
  };
}

/** ResponseInfo (amino JSON with omitempty: zero fields dropped). */
export function renderAbciInfo(r: ResponseInfo): Record<string, string> {
  const out: Record<string, string> = {};
  if (r.data) out['data'] = r.data;
  if (r.version) out['version'] = r.version;
  if (r.appVersion !== 0n) out['app_version'] = r.appVersion.toString();
  if (r.lastBlockHeight !== 0) out['last_block_height'] = String(r.lastBlockHeight);
  if (r.lastBlockAppHash.length > 0) out['last_block_app_hash'] = toBase64(r.lastBlockAppHash);
  return out;
}

export interface QueryJson {
  code: number;
  log: string;
  info: string;
  index: string;
  key: string | null;
  value: string | null;
  proofOps: { ops: { type: string; key: string | null; data: string | null }[] } | null;
  height: string;
  codespace: string;
}

/** ResponseQuery (jsonpb, defaults emitted; the proof field is "proofOps"). */
export function renderQuery(r: ResponseQuery): QueryJson {
  return {
    code: r.code,
    log: r.log,
    info: r.info,
    index: r.index.toString(),
    key: bytesOrNull(r.key),
    value: bytesOrNull(r.value),
    proofOps: r.proofOps ? { ops: r.proofOps.ops.map((op) => ({ type: op.type, key: bytesOrNull(op.key), data: bytesOrNull(op.data) })) } : null,
    height: String(r.height),
    codespace: r.codespace,
  };
}

/** An all-zero ExecTxResult (broadcast_tx_commit when CheckTx failed). */
export const EMPTY_EXEC_TX_RESULT: ExecTxResult = {
  code: 0,
  data: new Uint8Array(0),
  log: '',
  info: '',
  gasWanted: 0n,
  gasUsed: 0n,
  events: [],
  codespace: '',
};

export interface ResultTxJson {
  hash: string;
  height: string;
  index: number;
  tx_result: ExecTxResultJson;
  tx: string;
  proof?: ReturnType<typeof renderTxProof>;
}

/** `tx` / `tx_search` entry; the proof (prove=true) comes from the block store. */
export function renderResultTx(r: IndexedTx, proofBlock: Block | undefined): ResultTxJson {
  const out: ResultTxJson = {
    hash: toHexUpper(r.hash),
    height: String(r.height),
    index: r.index,
    tx_result: renderExecTxResult(r.result),
    tx: toBase64(r.tx),
  };
  if (proofBlock && r.index < proofBlock.data.txs.length) {
    const proof = renderTxProof(txProof(proofBlock.data.txs, r.index));
    // CometBFT omits empty aunts (one-tx blocks), which CosmJS's decoder rejects: always send the list.
    out.proof = { ...proof, proof: { ...proof.proof, aunts: proof.proof.aunts ?? [] } };
  }
  return out;
}

const STEP_NUMBERS: Record<string, number> = {
  RoundStepNewHeight: 1,
  RoundStepNewRound: 2,
  RoundStepPropose: 3,
  RoundStepPrevote: 4,
  RoundStepPrevoteWait: 5,
  RoundStepPrecommit: 6,
  RoundStepPrecommitWait: 7,
  RoundStepCommit: 8,
};

export function stepNumber(step: string): number {
  return STEP_NUMBERS[step] ?? 0;
}

/** The `data` of a websocket event: {type: "tendermint/event/<Name>", value}. */
export function renderEventData(event: ConsensusEvent): { type: string; value: unknown } {
  switch (event.type) {
    case 'NewBlock':
      return {
        type: 'tendermint/event/NewBlock',
        value: {
          block: renderBlock(event.data.block),
          block_id: renderBlockId(event.data.blockId),
          result_finalize_block: renderFinalizeBlockResponse(event.data.resultFinalizeBlock),
        },
      };
    case 'NewBlockHeader':
      return { type: 'tendermint/event/NewBlockHeader', value: { header: renderHeader(event.data.header) } };
    case 'NewBlockEvents':
      return {
        type: 'tendermint/event/NewBlockEvents',
        value: { height: String(event.data.height), events: event.data.events.map(renderEvent), num_txs: String(event.data.numTxs) },
      };
    case 'Tx': {
      // abci.TxResult in amino JSON: height and index omitted when zero; result in protobuf-JSON.
      const txResult: Record<string, unknown> = {};
      if (event.data.height !== 0) txResult['height'] = String(event.data.height);
      if (event.data.index !== 0) txResult['index'] = event.data.index;
      txResult['tx'] = toBase64(event.data.tx);
      txResult['result'] = renderExecTxResult(event.data.result);
      return { type: 'tendermint/event/Tx', value: { TxResult: txResult } };
    }
    case 'ValidatorSetUpdates':
      return { type: 'tendermint/event/ValidatorSetUpdates', value: { validator_updates: event.data.validatorUpdates.map(renderValidator) } };
    case 'NewRound':
      return {
        type: 'tendermint/event/NewRound',
        value: {
          height: String(event.data.height),
          round: event.data.round,
          step: event.data.step,
          proposer: { address: toHexUpper(event.data.proposer.address), index: event.data.proposer.index },
        },
      };
    case 'CompleteProposal':
      return {
        type: 'tendermint/event/CompleteProposal',
        value: { height: String(event.data.height), round: event.data.round, step: event.data.step, block_id: renderBlockId(event.data.blockId) },
      };
    case 'Vote':
      return { type: 'tendermint/event/Vote', value: { Vote: renderVote(event.data.vote) } };
    default:
      return { type: 'tendermint/event/RoundState', value: { height: String(event.data.height), round: event.data.round, step: event.data.step } };
  }
}
