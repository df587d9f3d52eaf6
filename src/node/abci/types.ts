/**
 * The engine/app boundary, shaped after ABCI 2.0 (CometBFT 0.38).
 *
 * The in-process consensus engine calls an `Application` directly. Field meanings follow
 * CometBFT's abci/types; heights are JS numbers (safe up to 2^53), gas and powers are bigint.
 * Keeping this plain-TypeScript (not generated protobuf) lets the engine and the app evolve
 * independently; an ABCI socket server could later map these onto tendermint.abci protobufs.
 */

export interface EventAttribute {
  key: string;
  value: string;
  index: boolean;
}

export interface AbciEvent {
  type: string;
  attributes: EventAttribute[];
}

export interface ValidatorUpdate {
  /** 'ed25519' | 'secp256k1' and the raw public key bytes. */
  pubKeyType: 'ed25519' | 'secp256k1';
  pubKey: Uint8Array;
  power: bigint;
}

export interface ConsensusParams {
  block: { maxBytes: bigint; maxGas: bigint };
  evidence: { maxAgeNumBlocks: bigint; maxAgeDurationNs: bigint; maxBytes: bigint };
  validator: { pubKeyTypes: string[] };
  version: { app: bigint };
  abci: { voteExtensionsEnableHeight: bigint };
}

export interface RequestInfo {
  version: string;
  blockVersion: bigint;
  p2pVersion: bigint;
  abciVersion: string;
}

export interface ResponseInfo {
  data: string;
  version: string;
  appVersion: bigint;
  lastBlockHeight: number;
  lastBlockAppHash: Uint8Array;
}

export interface RequestInitChain {
  time: Date;
  chainId: string;
  consensusParams: ConsensusParams;
  validators: ValidatorUpdate[];
  appStateBytes: Uint8Array;
  initialHeight: number;
}

export interface ResponseInitChain {
  consensusParams?: ConsensusParams;
  validators: ValidatorUpdate[];
  appHash: Uint8Array;
}

export type CheckTxType = 'new' | 'recheck';

export interface RequestCheckTx {
  tx: Uint8Array;
  type: CheckTxType;
}

export interface ResponseCheckTx {
  code: number;
  data: Uint8Array;
  log: string;
  info: string;
  gasWanted: bigint;
  gasUsed: bigint;
  events: AbciEvent[];
  codespace: string;
  /** Mempool ordering hint; higher first. */
  priority?: bigint;
  /** Signer address (hex) used by the mempool to keep per-sender order. */
  sender?: string;
}

export interface ExecTxResult {
  code: number;
  data: Uint8Array;
  log: string;
  info: string;
  gasWanted: bigint;
  gasUsed: bigint;
  events: AbciEvent[];
  codespace: string;
}

export type BlockIdFlag = 1 | 2 | 3; // absent, commit, nil

export interface VoteInfo {
  validatorAddress: Uint8Array;
  power: bigint;
  blockIdFlag: BlockIdFlag;
}

export interface CommitInfo {
  round: number;
  votes: VoteInfo[];
}

export interface Misbehavior {
  type: 'duplicate_vote' | 'light_client_attack';
  validatorAddress: Uint8Array;
  power: bigint;
  height: number;
  time: Date;
  totalVotingPower: bigint;
}

export interface RequestPrepareProposal {
  maxTxBytes: number;
  txs: Uint8Array[];
  localLastCommit: CommitInfo;
  misbehavior: Misbehavior[];
  height: number;
  time: Date;
  nextValidatorsHash: Uint8Array;
  proposerAddress: Uint8Array;
}

export interface ResponsePrepareProposal {
  txs: Uint8Array[];
}

export interface RequestProcessProposal {
  txs: Uint8Array[];
  proposedLastCommit: CommitInfo;
  misbehavior: Misbehavior[];
  hash: Uint8Array;
  height: number;
  time: Date;
  nextValidatorsHash: Uint8Array;
  proposerAddress: Uint8Array;
}

export interface ResponseProcessProposal {
  status: 'accept' | 'reject';
}

export interface RequestFinalizeBlock {
  txs: Uint8Array[];
  decidedLastCommit: CommitInfo;
  misbehavior: Misbehavior[];
  hash: Uint8Array;
  height: number;
  time: Date;
  nextValidatorsHash: Uint8Array;
  proposerAddress: Uint8Array;
}

export interface ResponseFinalizeBlock {
  events: AbciEvent[];
  txResults: ExecTxResult[];
  validatorUpdates: ValidatorUpdate[];
  consensusParamUpdates?: ConsensusParams;
  appHash: Uint8Array;
}

export interface ResponseCommit {
  /** Blocks below this height may be pruned by the engine (0 = keep all). */
  retainHeight: number;
}

export interface RequestQuery {
  data: Uint8Array;
  path: string;
  /** 0 = latest committed height. */
  height: number;
  prove: boolean;
}

export interface ProofOp {
  type: string;
  key: Uint8Array;
  data: Uint8Array;
}

export interface ResponseQuery {
  code: number;
  log: string;
  info: string;
  index: bigint;
  key: Uint8Array;
  value: Uint8Array;
  proofOps?: { ops: ProofOp[] };
  height: number;
  codespace: string;
}

/**
 * The state machine as the engine sees it. Calls on the consensus connection (InitChain,
 * PrepareProposal, ProcessProposal, FinalizeBlock, Commit) come from one caller in order.
 * CheckTx (mempool connection) and Query (query connection) may interleave with them.
 */
export interface Application {
  info(request: RequestInfo): Promise<ResponseInfo>;
  initChain(request: RequestInitChain): Promise<ResponseInitChain>;
  checkTx(request: RequestCheckTx): Promise<ResponseCheckTx>;
  /**
   * Not ABCI: work the mempool may start for a new tx before it queues for CheckTx (tokend's app
   * verifies signatures on worker threads); it must never decide the tx's fate.
   */
  precheckTx?(tx: Uint8Array): Promise<void>;
  prepareProposal(request: RequestPrepareProposal): Promise<ResponsePrepareProposal>;
  processProposal(request: RequestProcessProposal): Promise<ResponseProcessProposal>;
  finalizeBlock(request: RequestFinalizeBlock): Promise<ResponseFinalizeBlock>;
  commit(): Promise<ResponseCommit>;
  query(request: RequestQuery): Promise<ResponseQuery>;
}

// ---------------------------------------------------------------------------------------------
// State sync (snapshot connection): ListSnapshots, OfferSnapshot, LoadSnapshotChunk,
// ApplySnapshotChunk. An app that does not implement them serves no snapshots and cannot be
// restored from one.

export interface Snapshot {
  height: number;
  /** Application-specific format (the SDK's is 3). */
  format: number;
  chunks: number;
  /** Hash of the whole snapshot (app-defined; the SDK's is sha256 of the chunks). */
  hash: Uint8Array;
  /** App metadata (the SDK's: cosmos.store.snapshots.v1.Metadata with every chunk's sha256). */
  metadata: Uint8Array;
}

export type OfferSnapshotResult = 'unknown' | 'accept' | 'abort' | 'reject' | 'reject_format' | 'reject_sender';

export interface RequestOfferSnapshot {
  snapshot: Snapshot;
  /** The light-client-verified app hash at the snapshot height. */
  appHash: Uint8Array;
}

export interface RequestLoadSnapshotChunk {
  height: number;
  format: number;
  chunk: number;
}

export type ApplySnapshotChunkResult = 'unknown' | 'accept' | 'abort' | 'retry' | 'retry_snapshot' | 'reject_snapshot';

export interface RequestApplySnapshotChunk {
  index: number;
  chunk: Uint8Array;
  /** The peer the chunk came from. */
  sender: string;
}

export interface ResponseApplySnapshotChunk {
  result: ApplySnapshotChunkResult;
  /** Chunks to fetch again (e.g. one whose hash did not match). */
  refetchChunks: number[];
  /** Peers to stop fetching from (and to ban). */
  rejectSenders: string[];
}

/** The snapshot connection of an app that supports state sync. */
export interface SnapshotApplication {
  listSnapshots(): Promise<Snapshot[]>;
  offerSnapshot(request: RequestOfferSnapshot): Promise<{ result: OfferSnapshotResult }>;
  loadSnapshotChunk(request: RequestLoadSnapshotChunk): Promise<{ chunk: Uint8Array | undefined }>;
  applySnapshotChunk(request: RequestApplySnapshotChunk): Promise<ResponseApplySnapshotChunk>;
}
