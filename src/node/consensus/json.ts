/**
 * CometBFT 0.38 JSON renderers for the RPC layer (COMPAT §1.3/§1.4).
 *
 * Encoding rules: int64/uint64 → decimal string; int32/uint32/enums → number; []byte → base64;
 * HexBytes (hashes, addresses) → uppercase hex ("" when empty); times → RFC3339Nano with trailing
 * zeros trimmed. ABCI results (ExecTxResult, events) use protobuf-JSON with defaults emitted.
 */
import { decodeEvidence } from './evidence/evidence.js';
import type { AbciEvent, ConsensusParams, ExecTxResult, ResponseFinalizeBlock, ValidatorUpdate } from '../abci/types.js';
import { BlockIdFlag, type Block, type BlockId, type BlockMeta, type Commit, type CommitSig, type Header } from './types/block.js';
import { toBase64, toHexUpper } from './types/bytes.js';
import type { GenesisDoc } from './types/genesis.js';
import { AMINO_PUBKEY_NAMES, type PubKey } from './types/keys.js';
import type { ConsensusEvent } from './events.js';
import type { MerkleProof } from './types/merkle.js';
import { formatRfc3339Nano, type Timestamp } from './types/time.js';
import type { Validator } from './types/validator.js';
import type { Proposal, Vote } from './types/vote.js';
import { TimeSlicer } from '../../util/slices.js';

export interface BlockIdJson {
  hash: string;
  parts: { total: number; hash: string };
}

export interface PubKeyJson {
  type: string;
  value: string;
}

export interface HeaderJson {
  version: { block: string; app?: string };
  chain_id: string;
  height: string;
  time: string;
  last_block_id: BlockIdJson;
  last_commit_hash: string;
  data_hash: string;
  validators_hash: string;
  next_validators_hash: string;
  consensus_hash: string;
  app_hash: string;
  last_results_hash: string;
  evidence_hash: string;
  proposer_address: string;
}

export interface CommitSigJson {
  block_id_flag: number;
  validator_address: string;
  timestamp: string;
  signature: string | null;
}

export interface CommitJson {
  height: string;
  round: number;
  block_id: BlockIdJson;
  signatures: CommitSigJson[];
}

export interface BlockJson {
  header: HeaderJson;
  data: { txs: string[] };
  evidence: { evidence: unknown[] };
  last_commit: CommitJson;
}

export interface ValidatorJson {
  address: string;
  pub_key: PubKeyJson;
  voting_power: string;
  proposer_priority: string;
}

export interface ConsensusParamsJson {
  block: { max_bytes: string; max_gas: string };
  evidence: { max_age_num_blocks: string; max_age_duration: string; max_bytes: string };
  validator: { pub_key_types: string[] };
  version: { app: string };
  abci: { vote_extensions_enable_height: string };
}

export interface EventJson {
  type: string;
  /** Omitted for an attribute-less block event in Amino-style JSON. */
  attributes?: { key: string; value: string; index: boolean }[];
}

export interface ExecTxResultJson {
  code: number;
  data: string | null;
  log: string;
  info: string;
  gas_wanted: string;
  gas_used: string;
  events: EventJson[];
  codespace: string;
}

export interface ValidatorUpdateJson {
  pub_key: { Sum: { type: string; value: Record<string, string> } };
  power: string;
}

export function renderTime(t: Timestamp): string {
  return formatRfc3339Nano(t);
}

export function renderBlockId(id: BlockId): BlockIdJson {
  return { hash: toHexUpper(id.hash), parts: { total: id.partSetHeader.total, hash: toHexUpper(id.partSetHeader.hash) } };
}

export function renderPubKey(pubKey: PubKey): PubKeyJson {
  return { type: AMINO_PUBKEY_NAMES[pubKey.type], value: toBase64(pubKey.bytes) };
}

export function renderHeader(h: Header): HeaderJson {
  const version: HeaderJson['version'] = { block: h.version.block.toString() };
  if (h.version.app !== 0n) version.app = h.version.app.toString(); // omitempty
  return {
    version,
    chain_id: h.chainId,
    height: String(h.height),
    time: renderTime(h.time),
    last_block_id: renderBlockId(h.lastBlockId),
    last_commit_hash: toHexUpper(h.lastCommitHash),
    data_hash: toHexUpper(h.dataHash),
    validators_hash: toHexUpper(h.validatorsHash),
    next_validators_hash: toHexUpper(h.nextValidatorsHash),
    consensus_hash: toHexUpper(h.consensusHash),
    app_hash: toHexUpper(h.appHash),
    last_results_hash: toHexUpper(h.lastResultsHash),
    evidence_hash: toHexUpper(h.evidenceHash),
    proposer_address: toHexUpper(h.proposerAddress),
  };
}

export function renderCommitSig(sig: CommitSig): CommitSigJson {
  return {
    block_id_flag: sig.blockIdFlag,
    validator_address: toHexUpper(sig.validatorAddress),
    timestamp: renderTime(sig.timestamp),
    signature: sig.blockIdFlag === BlockIdFlag.Absent || sig.signature.length === 0 ? null : toBase64(sig.signature),
  };
}

export function renderCommit(c: Commit): CommitJson {
  return { height: String(c.height), round: c.round, block_id: renderBlockId(c.blockId), signatures: c.signatures.map(renderCommitSig) };
}

export function renderBlock(b: Block): BlockJson {
  return {
    header: renderHeader(b.header),
    data: { txs: b.data.txs.map(toBase64) },
    evidence: { evidence: b.evidence.map(renderEvidence) },
    last_commit: renderCommit(b.lastCommit),
  };
}

/** A block's evidence item in CometBFT's amino JSON (DuplicateVoteEvidence has untagged Go fields). */
export function renderEvidence(bytes: Uint8Array): unknown {
  const ev = decodeEvidence(bytes);
  return {
    type: 'tendermint/DuplicateVoteEvidence',
    value: {
      vote_a: renderVote(ev.voteA),
      vote_b: renderVote(ev.voteB),
      TotalVotingPower: ev.totalVotingPower.toString(),
      ValidatorPower: ev.validatorPower.toString(),
      Timestamp: renderTime(ev.timestamp),
    },
  };
}

/** `block` / `block_by_hash` result. */
export function renderBlockResult(blockId: BlockId, block: Block): { block_id: BlockIdJson; block: BlockJson } {
  return { block_id: renderBlockId(blockId), block: renderBlock(block) };
}

/** `blockchain` block_metas entry. */
export function renderBlockMeta(m: BlockMeta): { block_id: BlockIdJson; block_size: string; header: HeaderJson; num_txs: string } {
  return { block_id: renderBlockId(m.blockId), block_size: String(m.blockSize), header: renderHeader(m.header), num_txs: String(m.numTxs) };
}

/** `commit` result; `canonical` is false for the latest height (a seen commit). */
export function renderCommitResult(header: Header, commit: Commit, canonical: boolean): { signed_header: { header: HeaderJson; commit: CommitJson }; canonical: boolean } {
  return { signed_header: { header: renderHeader(header), commit: renderCommit(commit) }, canonical };
}

export function renderValidator(v: Validator): ValidatorJson {
  return {
    address: toHexUpper(v.address),
    pub_key: renderPubKey(v.pubKey),
    voting_power: v.votingPower.toString(),
    proposer_priority: v.proposerPriority.toString(),
  };
}

/** `validators` result for one page of a set. */
export function renderValidatorsResult(height: number, page: Validator[], total: number): { block_height: string; validators: ValidatorJson[]; count: string; total: string } {
  return { block_height: String(height), validators: page.map(renderValidator), count: String(page.length), total: String(total) };
}

export function renderConsensusParams(p: ConsensusParams): ConsensusParamsJson {
  return {
    block: { max_bytes: p.block.maxBytes.toString(), max_gas: p.block.maxGas.toString() },
    evidence: {
      max_age_num_blocks: p.evidence.maxAgeNumBlocks.toString(),
      max_age_duration: p.evidence.maxAgeDurationNs.toString(),
      max_bytes: p.evidence.maxBytes.toString(),
    },
    validator: { pub_key_types: [...p.validator.pubKeyTypes] },
    version: { app: p.version.app.toString() },
    abci: { vote_extensions_enable_height: p.abci.voteExtensionsEnableHeight.toString() },
  };
}

/** `consensus_params` result. */
export function renderConsensusParamsResult(height: number, p: ConsensusParams): { block_height: string; consensus_params: ConsensusParamsJson } {
  return { block_height: String(height), consensus_params: renderConsensusParams(p) };
}

/** An ABCI event as protobuf-JSON with defaults (inside ExecTxResult): `attributes` always present. */
export function renderEvent(e: AbciEvent): EventJson {
  return { type: e.type, attributes: e.attributes.map((a) => ({ key: a.key, value: a.value, index: a.index })) };
}

/**
 * A block-level event (finalize_block_events, NewBlock, NewBlockEvents) in Amino-style JSON, where
 * an empty `attributes` list is omitted.
 */
export function renderBlockEvent(e: AbciEvent): EventJson {
  const out = renderEvent(e);
  if (e.attributes.length === 0) delete out.attributes;
  return out;
}

/** ExecTxResult as protobuf-JSON with defaults (tx_result, txs_results). */
export function renderExecTxResult(r: ExecTxResult): ExecTxResultJson {
  return {
    code: r.code,
    data: r.data.length === 0 ? null : toBase64(r.data),
    log: r.log,
    info: r.info,
    gas_wanted: r.gasWanted.toString(),
    gas_used: r.gasUsed.toString(),
    events: r.events.map(renderEvent),
    codespace: r.codespace,
  };
}

/** ValidatorUpdate as CometBFT's RPC shows it (crypto/encoding codec). */
export function renderValidatorUpdate(u: ValidatorUpdate): ValidatorUpdateJson {
  const sum: ValidatorUpdateJson['pub_key']['Sum'] =
    u.pubKeyType === 'ed25519'
      ? { type: 'tendermint.crypto.PublicKey_Ed25519', value: { ed25519: toBase64(u.pubKey) } }
      : { type: 'tendermint.crypto.PublicKey_Secp256K1', value: { secp256k1: toBase64(u.pubKey) } };
  return { pub_key: { Sum: sum }, power: u.power.toString() };
}

/** `block_results` result (0.38: finalize_block_events and app_hash in base64). */
export function renderBlockResults(
  height: number,
  r: ResponseFinalizeBlock,
): {
  height: string;
  txs_results: ExecTxResultJson[] | null;
  finalize_block_events: EventJson[];
  validator_updates: ValidatorUpdateJson[] | null;
  consensus_param_updates: ConsensusParamsJson | null;
  app_hash: string;
} {
  return {
    height: String(height),
    txs_results: r.txResults.length === 0 ? null : r.txResults.map(renderExecTxResult),
    finalize_block_events: r.events.map(renderBlockEvent),
    validator_updates: r.validatorUpdates.length === 0 ? null : r.validatorUpdates.map(renderValidatorUpdate),
    consensus_param_updates: r.consensusParamUpdates ? renderConsensusParams(r.consensusParamUpdates) : null,
    app_hash: toBase64(r.appHash),
  };
}

/** Tx results rendered per piece when block_results is rendered in slices. */
const RESULTS_PER_PIECE = 25;

/**
 * The text of `JSON.stringify(renderBlockResults(height, r))`, rendered a few tx results at a time
 * with the event loop given a turn every `sliceMs`: a block of thousands of txs takes tens of
 * milliseconds to render, which queries and CheckTx would otherwise wait out.
 */
export async function renderBlockResultsText(height: number, r: ResponseFinalizeBlock, sliceMs: number): Promise<string> {
  const slicer = new TimeSlicer(sliceMs);
  const pieces: string[] = [];
  for (let i = 0; i < r.txResults.length; i += RESULTS_PER_PIECE) {
    if (slicer.due()) await slicer.pause();
    pieces.push(JSON.stringify(r.txResults.slice(i, i + RESULTS_PER_PIECE).map(renderExecTxResult)).slice(1, -1));
  }
  const { height: h, txs_results: _none, ...rest } = renderBlockResults(height, { ...r, txResults: [] });
  const results = pieces.length === 0 ? 'null' : `[${pieces.join(',')}]`;
  return `{"height":${JSON.stringify(h)},"txs_results":${results},${JSON.stringify(rest).slice(1)}`;
}

/** ResponseFinalizeBlock as carried in the NewBlock event (Amino-style JSON: empty fields omitted). */
export function renderFinalizeBlockResponse(r: ResponseFinalizeBlock): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (r.events.length) out['events'] = r.events.map(renderBlockEvent);
  if (r.txResults.length) out['tx_results'] = r.txResults.map(renderExecTxResult);
  out['validator_updates'] = r.validatorUpdates.length ? r.validatorUpdates.map(renderValidatorUpdate) : null;
  if (r.consensusParamUpdates) out['consensus_param_updates'] = renderConsensusParams(r.consensusParamUpdates);
  if (r.appHash.length) out['app_hash'] = toBase64(r.appHash);
  return out;
}

/** The `proof` object of the `tx` RPC with prove=true. */
export function renderTxProof(p: { rootHash: Uint8Array; data: Uint8Array; proof: MerkleProof }): {
  root_hash: string;
  data: string;
  proof: { total: string; index: string; leaf_hash: string; aunts?: string[] };
} {
  const proof: { total: string; index: string; leaf_hash: string; aunts?: string[] } = {
    total: String(p.proof.total),
    index: String(p.proof.index),
    leaf_hash: toBase64(p.proof.leafHash),
  };
  if (p.proof.aunts.length > 0) proof.aunts = p.proof.aunts.map(toBase64); // omitempty
  return { root_hash: toHexUpper(p.rootHash), data: toBase64(p.data), proof };
}

export function renderVote(v: Vote): Record<string, unknown> {
  return {
    type: v.type,
    height: String(v.height),
    round: v.round,
    block_id: renderBlockId(v.blockId),
    timestamp: renderTime(v.timestamp),
    validator_address: toHexUpper(v.validatorAddress),
    validator_index: v.validatorIndex,
    signature: toBase64(v.signature),
    extension: v.extension.length ? toBase64(v.extension) : null,
    extension_signature: v.extensionSignature.length ? toBase64(v.extensionSignature) : null,
  };
}

export function renderProposal(p: Proposal): Record<string, unknown> {
  return {
    type: p.type,
    height: String(p.height),
    round: p.round,
    pol_round: p.polRound,
    block_id: renderBlockId(p.blockId),
    timestamp: renderTime(p.timestamp),
    signature: toBase64(p.signature),
  };
}

/** Genesis doc in CometBFT layout (the `genesis` RPC). `app_state` is parsed from its raw JSON. */
export function renderGenesis(doc: GenesisDoc): Record<string, unknown> {
  const out: Record<string, unknown> = {
    genesis_time: renderTime(doc.genesisTime),
    chain_id: doc.chainId,
    initial_height: String(doc.initialHeight),
    consensus_params: renderConsensusParams(doc.consensusParams),
    validators: doc.validators.map((v) => ({ address: toHexUpper(v.address), pub_key: renderPubKey(v.pubKey), power: v.power.toString(), name: v.name })),
    app_hash: toHexUpper(doc.appHash),
  };
  if (doc.appStateJson) out['app_state'] = JSON.parse(doc.appStateJson) as unknown;
  return out;
}

/**
 * The `genesis` result as JSON text with app_state spliced in byte for byte (no number rounding).
 * Prefer this when the RPC writes text.
 */
export function renderGenesisJsonText(doc: GenesisDoc): string {
  const { app_state: _ignored, ...rest } = renderGenesis({ ...doc, appStateJson: '' });
  const head = JSON.stringify(rest);
  if (!doc.appStateJson) return head;
  return `${head.slice(0, -1)},"app_state":${doc.appStateJson}}`;
}

/** `status` sync_info from the consensus status (hashes "" and height "0" before block 1). */
export function renderSyncInfo(s: {
  latestBlockHash: Uint8Array;
  latestAppHash: Uint8Array;
  latestBlockHeight: number;
  latestBlockTime: Timestamp;
  earliestBlockHash: Uint8Array;
  earliestAppHash: Uint8Array;
  earliestBlockHeight: number;
  earliestBlockTime: Timestamp;
  catchingUp: boolean;
}): Record<string, string | boolean> {
  return {
    latest_block_hash: toHexUpper(s.latestBlockHash),
    latest_app_hash: toHexUpper(s.latestAppHash),
    latest_block_height: String(s.latestBlockHeight),
    latest_block_time: renderTime(s.latestBlockTime),
    earliest_block_hash: toHexUpper(s.earliestBlockHash),
    earliest_app_hash: toHexUpper(s.earliestAppHash),
    earliest_block_height: String(s.earliestBlockHeight),
    earliest_block_time: renderTime(s.earliestBlockTime),
    catching_up: s.catchingUp,
  };
}

/** `status` validator_info ({address:"",pub_key:null,voting_power:"0"} style for a non-validator is up to the caller). */
export function renderValidatorInfo(v: { address: Uint8Array; pubKey: PubKey; votingPower: bigint }): { address: string; pub_key: PubKeyJson; voting_power: string } {
  return { address: toHexUpper(v.address), pub_key: renderPubKey(v.pubKey), voting_power: v.votingPower.toString() };
}

/**
 * The `data` of a websocket event: {"type":"tendermint/event/<Name>","value":…} (COMPAT §1.6).
 * Pair it with `event.events` (the composite keys) for the `events` field of the reply.
 */
export function renderEventData(event: ConsensusEvent): { type: string; value: Record<string, unknown> } {
  const type = `tendermint/event/${event.type}`;
  switch (event.type) {
    case 'NewBlock':
      return {
        type,
        value: {
          block: renderBlock(event.data.block),
          block_id: renderBlockId(event.data.blockId),
          result_finalize_block: renderFinalizeBlockResponse(event.data.resultFinalizeBlock),
        },
      };
    case 'NewBlockHeader':
      return { type, value: { header: renderHeader(event.data.header) } };
    case 'NewBlockEvents':
      return { type, value: { height: String(event.data.height), events: event.data.events.map(renderBlockEvent), num_txs: String(event.data.numTxs) } };
    case 'Tx': {
      const txResult: Record<string, unknown> = { height: String(event.data.height) };
      if (event.data.index !== 0) txResult['index'] = event.data.index; // omitempty
      txResult['tx'] = toBase64(event.data.tx);
      txResult['result'] = renderExecTxResult(event.data.result);
      return { type, value: { TxResult: txResult } };
    }
    case 'ValidatorSetUpdates':
      return { type, value: { validator_updates: event.data.validatorUpdates.map(renderValidator) } };
    case 'Vote':
      return { type, value: { Vote: renderVote(event.data.vote) } };
    case 'NewRound':
      return {
        type,
        value: {
          height: String(event.data.height),
          round: event.data.round,
          step: event.data.step,
          proposer: { address: toHexUpper(event.data.proposer.address), index: event.data.proposer.index },
        },
      };
    case 'CompleteProposal':
      return { type, value: { height: String(event.data.height), round: event.data.round, step: event.data.step, block_id: renderBlockId(event.data.blockId) } };
    default:
      return { type: 'tendermint/event/RoundState', value: { height: String(event.data.height), round: event.data.round, step: event.data.step } };
  }
}
