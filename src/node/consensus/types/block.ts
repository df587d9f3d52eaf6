/**
 * Blocks, headers, block IDs and commits with their CometBFT 0.38 protobuf encodings
 * (tendermint/types/types.proto, block.proto) and hashes (types/block.go).
 */
import { ConsensusError } from '../errors.js';
import { EMPTY_BYTES, bytesEqual, sha256 } from './bytes.js';
import { EMPTY_HASH, leafHash, merkleProof, merkleRoot, merkleRootFromLeafHashes, type MerkleProof } from './merkle.js';
import { ProtoWriter, encodeProto, readMessage, uvarintSize } from './proto.js';
import { ZERO_TIME, readTimestamp, writeTimestamp, type Timestamp } from './time.js';

/** CometBFT 0.38 block protocol version (version.BlockProtocol). */
export const BLOCK_PROTOCOL = 11n;
/** P2P protocol version reported in node info. */
export const P2P_PROTOCOL = 8n;
/** Size of a block part (types.BlockPartSizeBytes). */
export const BLOCK_PART_SIZE_BYTES = 65536;
/** Hard upper bound on a block (types.MaxBlockSizeBytes). */
export const MAX_BLOCK_SIZE_BYTES = 104857600;
export const MAX_CHAIN_ID_LENGTH = 50;
export const HASH_SIZE = 32;

// Overheads used to size the data part of a block (types/block.go).
export const MAX_HEADER_BYTES = 626;
export const MAX_OVERHEAD_FOR_BLOCK = 11;
export const MAX_COMMIT_OVERHEAD_BYTES = 94;
export const MAX_COMMIT_SIG_BYTES = 109;

export enum BlockIdFlag {
  Unknown = 0,
  Absent = 1,
  Commit = 2,
  Nil = 3,
}

export interface PartSetHeader {
  total: number;
  hash: Uint8Array;
}

export interface BlockId {
  hash: Uint8Array;
  partSetHeader: PartSetHeader;
}

export interface ConsensusVersion {
  block: bigint;
  app: bigint;
}

export interface Header {
  version: ConsensusVersion;
  chainId: string;
  height: number;
  time: Timestamp;
  lastBlockId: BlockId;
  lastCommitHash: Uint8Array;
  dataHash: Uint8Array;
  validatorsHash: Uint8Array;
  nextValidatorsHash: Uint8Array;
  consensusHash: Uint8Array;
  appHash: Uint8Array;
  lastResultsHash: Uint8Array;
  evidenceHash: Uint8Array;
  proposerAddress: Uint8Array;
}

export interface CommitSig {
  blockIdFlag: BlockIdFlag;
  validatorAddress: Uint8Array;
  timestamp: Timestamp;
  signature: Uint8Array;
}

export interface Commit {
  height: number;
  round: number;
  blockId: BlockId;
  signatures: CommitSig[];
}

export interface Block {
  header: Header;
  data: { txs: Uint8Array[] };
  /** Evidence items as raw tendermint.types.Evidence protobuf (this engine never produces any). */
  evidence: Uint8Array[];
  lastCommit: Commit;
}

export interface BlockMeta {
  blockId: BlockId;
  blockSize: number;
  header: Header;
  numTxs: number;
}

// ---------------------------------------------------------------------------------------------
// BlockID

export function zeroBlockId(): BlockId {
  return { hash: EMPTY_BYTES, partSetHeader: { total: 0, hash: EMPTY_BYTES } };
}

export function blockIdIsZero(id: BlockId): boolean {
  return id.hash.length === 0 && id.partSetHeader.total === 0 && id.partSetHeader.hash.length === 0;
}

export function blockIdIsComplete(id: BlockId): boolean {
  return id.hash.length === HASH_SIZE && id.partSetHeader.total > 0 && id.partSetHeader.hash.length === HASH_SIZE;
}

export function partSetHeadersEqual(a: PartSetHeader, b: PartSetHeader): boolean {
  return a.total === b.total && bytesEqual(a.hash, b.hash);
}

export function blockIdsEqual(a: BlockId, b: BlockId): boolean {
  return bytesEqual(a.hash, b.hash) && partSetHeadersEqual(a.partSetHeader, b.partSetHeader);
}

/** A string key identifying a block ID (for maps of votes by block). */
export function blockIdKey(id: BlockId): string {
  return `${Buffer.from(id.hash).toString('hex')}:${id.partSetHeader.total}:${Buffer.from(id.partSetHeader.hash).toString('hex')}`;
}

export function writePartSetHeader(w: ProtoWriter, psh: PartSetHeader): void {
  w.varintField(1, psh.total);
  w.bytesField(2, psh.hash);
}

export function writeBlockId(w: ProtoWriter, id: BlockId): void {
  w.bytesField(1, id.hash);
  w.messageAlways(2, (x) => writePartSetHeader(x, id.partSetHeader));
}

export function readPartSetHeader(bytes: Uint8Array): PartSetHeader {
  const psh: PartSetHeader = { total: 0, hash: EMPTY_BYTES };
  readMessage(bytes, (field, wire, r) => {
    if (field === 1 && wire === 0) psh.total = r.uvarint();
    else if (field === 2 && wire === 2) psh.hash = r.bytes().slice();
    else r.skip(wire);
  });
  return psh;
}

export function readBlockId(bytes: Uint8Array): BlockId {
  const id = zeroBlockId();
  readMessage(bytes, (field, wire, r) => {
    if (field === 1 && wire === 2) id.hash = r.bytes().slice();
    else if (field === 2 && wire === 2) id.partSetHeader = readPartSetHeader(r.bytes());
    else r.skip(wire);
  });
  return id;
}

export function validateBlockId(id: BlockId, what: string): void {
  if (id.hash.length !== 0 && id.hash.length !== HASH_SIZE) throw invalid(`${what}: wrong hash length ${id.hash.length}`);
  const psHash = id.partSetHeader.hash;
  if (psHash.length !== 0 && psHash.length !== HASH_SIZE) throw invalid(`${what}: wrong part set hash length ${psHash.length}`);
}

function invalid(message: string): ConsensusError {
  return new ConsensusError('INVALID_BLOCK', message);
}

// ---------------------------------------------------------------------------------------------
// Header

export function writeConsensusVersion(w: ProtoWriter, v: ConsensusVersion): void {
  w.varintField(1, v.block);
  w.varintField(2, v.app);
}

export function writeHeader(w: ProtoWriter, h: Header): void {
  w.messageAlways(1, (x) => writeConsensusVersion(x, h.version));
  w.stringField(2, h.chainId);
  w.varintField(3, h.height);
  w.messageAlways(4, (x) => writeTimestamp(x, h.time));
  w.messageAlways(5, (x) => writeBlockId(x, h.lastBlockId));
  w.bytesField(6, h.lastCommitHash);
  w.bytesField(7, h.dataHash);
  w.bytesField(8, h.validatorsHash);
  w.bytesField(9, h.nextValidatorsHash);
  w.bytesField(10, h.consensusHash);
  w.bytesField(11, h.appHash);
  w.bytesField(12, h.lastResultsHash);
  w.bytesField(13, h.evidenceHash);
  w.bytesField(14, h.proposerAddress);
}

export function encodeHeader(h: Header): Uint8Array {
  return encodeProto((w) => writeHeader(w, h), 512);
}

export function emptyHeader(): Header {
  return {
    version: { block: 0n, app: 0n },
    chainId: '',
    height: 0,
    time: ZERO_TIME,
    lastBlockId: zeroBlockId(),
    lastCommitHash: EMPTY_BYTES,
    dataHash: EMPTY_BYTES,
    validatorsHash: EMPTY_BYTES,
    nextValidatorsHash: EMPTY_BYTES,
    consensusHash: EMPTY_BYTES,
    appHash: EMPTY_BYTES,
    lastResultsHash: EMPTY_BYTES,
    evidenceHash: EMPTY_BYTES,
    proposerAddress: EMPTY_BYTES,
  };
}

export function readHeader(bytes: Uint8Array): Header {
  const h = emptyHeader();
  readMessage(bytes, (field, wire, r) => {
    if (wire === 2) {
      const b = r.bytes();
      switch (field) {
        case 1:
          readMessage(b, (f, wt, rr) => {
            if (f === 1 && wt === 0) h.version.block = rr.uvarint64();
            else if (f === 2 && wt === 0) h.version.app = rr.uvarint64();
            else rr.skip(wt);
          });
          break;
        case 2:
          h.chainId = Buffer.from(b).toString('utf8');
          break;
        case 4:
          h.time = readTimestamp(b);
          break;
        case 5:
          h.lastBlockId = readBlockId(b);
          break;
        case 6:
          h.lastCommitHash = b.slice();
          break;
        case 7:
          h.dataHash = b.slice();
          break;
        case 8:
          h.validatorsHash = b.slice();
          break;
        case 9:
          h.nextValidatorsHash = b.slice();
          break;
        case 10:
          h.consensusHash = b.slice();
          break;
        case 11:
          h.appHash = b.slice();
          break;
        case 12:
          h.lastResultsHash = b.slice();
          break;
        case 13:
          h.evidenceHash = b.slice();
          break;
        case 14:
          h.proposerAddress = b.slice();
          break;
        default:
          break;
      }
    } else if (field === 3 && wire === 0) {
      h.height = r.int64Number();
    } else {
      r.skip(wire);
    }
  });
  return h;
}

/** BytesValue/StringValue/Int64Value wrapper encoding (cdcEncode): field 1, omitted when empty. */
function wrapBytes(value: Uint8Array): Uint8Array {
  return encodeProto((w) => w.bytesField(1, value), value.length + 4);
}

/**
 * Header hash = block hash: Merkle root of the 14 proto-encoded header fields.
 * Returns an empty array when the validators hash is missing (an incomplete header), like CometBFT.
 */
export function hashHeader(h: Header): Uint8Array {
  if (h.validatorsHash.length === 0) return EMPTY_BYTES;
  return merkleRoot([
    encodeProto((w) => writeConsensusVersion(w, h.version), 24),
    encodeProto((w) => w.stringField(1, h.chainId), 64),
    encodeProto((w) => w.varintField(1, h.height), 16),
    encodeProto((w) => writeTimestamp(w, h.time), 24),
    encodeProto((w) => writeBlockId(w, h.lastBlockId), 80),
    wrapBytes(h.lastCommitHash),
    wrapBytes(h.dataHash),
    wrapBytes(h.validatorsHash),
    wrapBytes(h.nextValidatorsHash),
    wrapBytes(h.consensusHash),
    wrapBytes(h.appHash),
    wrapBytes(h.lastResultsHash),
    wrapBytes(h.evidenceHash),
    wrapBytes(h.proposerAddress),
  ]);
}

export function validateHeaderBasic(h: Header): void {
  if (h.version.block !== BLOCK_PROTOCOL) throw invalid(`block protocol is incorrect: got: ${h.version.block}, want: ${BLOCK_PROTOCOL}`);
  if (h.chainId.length > MAX_CHAIN_ID_LENGTH) throw invalid(`chainID is too long; got: ${h.chainId.length}, max: ${MAX_CHAIN_ID_LENGTH}`);
  if (h.height <= 0) throw invalid(h.height === 0 ? 'zero Height' : 'negative Height');
  validateBlockId(h.lastBlockId, 'wrong LastBlockID');
  for (const [name, value] of [
    ['LastCommitHash', h.lastCommitHash],
    ['DataHash', h.dataHash],
    ['EvidenceHash', h.evidenceHash],
    ['ValidatorsHash', h.validatorsHash],
    ['NextValidatorsHash', h.nextValidatorsHash],
    ['ConsensusHash', h.consensusHash],
    ['LastResultsHash', h.lastResultsHash],
  ] as const) {
    if (value.length !== 0 && value.length !== HASH_SIZE) throw invalid(`wrong ${name}: expected size to be ${HASH_SIZE} bytes, got ${value.length} bytes`);
  }
  if (h.proposerAddress.length !== 20) throw invalid(`invalid ProposerAddress length; got: ${h.proposerAddress.length}, expected: 20`);
}

// ---------------------------------------------------------------------------------------------
// Commit

export function absentCommitSig(): CommitSig {
  return { blockIdFlag: BlockIdFlag.Absent, validatorAddress: EMPTY_BYTES, timestamp: ZERO_TIME, signature: EMPTY_BYTES };
}

export function writeCommitSig(w: ProtoWriter, sig: CommitSig): void {
  w.varintField(1, sig.blockIdFlag);
  w.bytesField(2, sig.validatorAddress);
  w.messageAlways(3, (x) => writeTimestamp(x, sig.timestamp));
  w.bytesField(4, sig.signature);
}

export function readCommitSig(bytes: Uint8Array): CommitSig {
  const sig = absentCommitSig();
  sig.blockIdFlag = BlockIdFlag.Unknown;
  readMessage(bytes, (field, wire, r) => {
    if (field === 1 && wire === 0) sig.blockIdFlag = r.uvarint();
    else if (field === 2 && wire === 2) sig.validatorAddress = r.bytes().slice();
    else if (field === 3 && wire === 2) sig.timestamp = readTimestamp(r.bytes());
    else if (field === 4 && wire === 2) sig.signature = r.bytes().slice();
    else r.skip(wire);
  });
  return sig;
}

export function writeCommit(w: ProtoWriter, c: Commit): void {
  w.varintField(1, c.height);
  w.varintField(2, c.round);
  w.messageAlways(3, (x) => writeBlockId(x, c.blockId));
  for (const sig of c.signatures) w.messageAlways(4, (x) => writeCommitSig(x, sig));
}

export function encodeCommit(c: Commit): Uint8Array {
  return encodeProto((w) => writeCommit(w, c), 128 + c.signatures.length * 110);
}

export function decodeCommit(bytes: Uint8Array): Commit {
  const c = emptyCommit();
  readMessage(bytes, (field, wire, r) => {
    if (field === 1 && wire === 0) c.height = r.int64Number();
    else if (field === 2 && wire === 0) c.round = r.int32();
    else if (field === 3 && wire === 2) c.blockId = readBlockId(r.bytes());
    else if (field === 4 && wire === 2) c.signatures.push(readCommitSig(r.bytes()));
    else r.skip(wire);
  });
  return c;
}

/** The (non-nil, empty) last commit of the first block. */
export function emptyCommit(): Commit {
  return { height: 0, round: 0, blockId: zeroBlockId(), signatures: [] };
}

/** Merkle root over the proto-encoded commit signatures (last_commit_hash). */
export function hashCommit(c: Commit): Uint8Array {
  return merkleRoot(c.signatures.map((sig) => encodeProto((w) => writeCommitSig(w, sig), 128)));
}

export function validateCommitSig(sig: CommitSig, index: number): void {
  const where = `wrong CommitSig #${index}`;
  switch (sig.blockIdFlag) {
    case BlockIdFlag.Absent:
      if (sig.validatorAddress.length !== 0) throw new ConsensusError('INVALID_COMMIT', `${where}: validator address is present`);
      if (sig.signature.length !== 0) throw new ConsensusError('INVALID_COMMIT', `${where}: signature is present`);
      return;
    case BlockIdFlag.Commit:
    case BlockIdFlag.Nil:
      if (sig.validatorAddress.length !== 20) {
        throw new ConsensusError('INVALID_COMMIT', `${where}: expected ValidatorAddress size to be 20 bytes, got ${sig.validatorAddress.length} bytes`);
      }
      if (sig.signature.length === 0) throw new ConsensusError('INVALID_COMMIT', `${where}: signature is missing`);
      if (sig.signature.length > 64) throw new ConsensusError('INVALID_COMMIT', `${where}: signature is too big (max: 64)`);
      return;
    default:
      throw new ConsensusError('INVALID_COMMIT', `${where}: unknown BlockIDFlag: ${String(sig.blockIdFlag)}`);
  }
}

export function validateCommitBasic(c: Commit): void {
  if (c.height < 0) throw new ConsensusError('INVALID_COMMIT', 'negative Height');
  if (c.round < 0) throw new ConsensusError('INVALID_COMMIT', 'negative Round');
  if (c.height >= 1) {
    if (blockIdIsZero(c.blockId)) throw new ConsensusError('INVALID_COMMIT', 'commit cannot be for nil block');
    if (c.signatures.length === 0) throw new ConsensusError('INVALID_COMMIT', 'no signatures in commit');
    c.signatures.forEach(validateCommitSig);
  }
}

/** Upper bound on an encoded commit for `validatorCount` validators (types.MaxCommitBytes). */
export function maxCommitBytes(validatorCount: number): number {
  return MAX_COMMIT_OVERHEAD_BYTES + (MAX_COMMIT_SIG_BYTES + 2) * validatorCount;
}

// ---------------------------------------------------------------------------------------------
// Data, evidence and results hashes

/**
 * Tx hashes memoised per tx object: the same bytes flow from CheckTx through the proposal to the
 * block, so the proposer hashes each tx once. Txs are treated as immutable.
 */
const txHashCache = new WeakMap<Uint8Array, Uint8Array>();

/** sha256 of a raw transaction: its hash and its key in the mempool and indexes. */
export function txHash(tx: Uint8Array): Uint8Array {
  let hash = txHashCache.get(tx);
  if (!hash) {
    hash = sha256(tx);
    txHashCache.set(tx, hash);
  }
  return hash;
}

/** data_hash = Merkle root over the tx hashes. */
export function hashTxs(txs: readonly Uint8Array[]): Uint8Array {
  if (txs.length === 0) return EMPTY_HASH;
  return merkleRootFromLeafHashes(txs.map((tx) => leafHash(txHash(tx))));
}

/** Inclusion proof of txs[index] under the block's data_hash (the `tx` RPC with prove=true). */
export function txProof(txs: readonly Uint8Array[], index: number): { rootHash: Uint8Array; data: Uint8Array; proof: MerkleProof } {
  const { root, proof } = merkleProof(txs.map(txHash), index);
  return { rootHash: root, data: txs[index]!, proof };
}

/** Encoded size of txs inside a Data message (types.ComputeProtoSizeForTxs). */
export function protoSizeOfTx(tx: Uint8Array): number {
  return 1 + uvarintSize(tx.length) + tx.length;
}

/**
 * evidence_hash: Merkle root over each evidence's inner proto bytes (Evidence is a oneof wrapper
 * around the concrete evidence message; CometBFT hashes the concrete message).
 */
export function hashEvidence(evidence: readonly Uint8Array[]): Uint8Array {
  if (evidence.length === 0) return EMPTY_HASH;
  return merkleRoot(
    evidence.map((ev) => {
      let inner: Uint8Array = ev;
      readMessage(ev, (_field, wire, r) => {
        if (wire === 2) inner = r.bytes().slice();
        else r.skip(wire);
      });
      return inner;
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Block

export function writeBlock(w: ProtoWriter, b: Block): void {
  w.messageAlways(1, (x) => writeHeader(x, b.header));
  w.messageAlways(2, (x) => {
    for (const tx of b.data.txs) x.bytesAlways(1, tx);
  });
  w.messageAlways(3, (x) => {
    for (const ev of b.evidence) x.bytesAlways(1, ev);
  });
  w.messageAlways(4, (x) => writeCommit(x, b.lastCommit));
}

/** tendermint.types.Block protobuf bytes (what the part set is cut from). */
export function encodeBlock(b: Block): Uint8Array {
  let size = 1024 + b.lastCommit.signatures.length * 112;
  for (const tx of b.data.txs) size += tx.length + 6;
  for (const ev of b.evidence) size += ev.length + 6;
  return encodeProto((w) => writeBlock(w, b), size);
}

export function decodeBlock(bytes: Uint8Array): Block {
  let header: Header | undefined;
  const txs: Uint8Array[] = [];
  const evidence: Uint8Array[] = [];
  let lastCommit: Commit | undefined;
  readMessage(bytes, (field, wire, r) => {
    if (wire !== 2) {
      r.skip(wire);
      return;
    }
    const b = r.bytes();
    if (field === 1) header = readHeader(b);
    else if (field === 2)
      readMessage(b, (f, wt, rr) => {
        if (f === 1 && wt === 2) txs.push(rr.bytes().slice());
        else rr.skip(wt);
      });
    else if (field === 3)
      readMessage(b, (f, wt, rr) => {
        if (f === 1 && wt === 2) evidence.push(rr.bytes().slice());
        else rr.skip(wt);
      });
    else if (field === 4) lastCommit = decodeCommit(b);
  });
  if (!header) throw new ConsensusError('DECODE', 'block has no header');
  return { header, data: { txs }, evidence, lastCommit: lastCommit ?? emptyCommit() };
}

const blockHashCache = new WeakMap<Block, Uint8Array>();

/** Block hash (= header hash), memoised per block object. Blocks are treated as immutable once hashed. */
export function hashBlock(b: Block): Uint8Array {
  let hash = blockHashCache.get(b);
  if (!hash) {
    hash = hashHeader(b.header);
    blockHashCache.set(b, hash);
  }
  return hash;
}

export function blockHashesTo(b: Block | undefined, hash: Uint8Array): boolean {
  if (!b || hash.length === 0) return false;
  return bytesEqual(hashBlock(b), hash);
}

/** Stateless checks of a block (types.Block.ValidateBasic). */
export function validateBlockBasic(b: Block): void {
  validateHeaderBasic(b.header);
  validateCommitBasic(b.lastCommit);
  if (!bytesEqual(b.header.lastCommitHash, hashCommit(b.lastCommit))) throw invalid('wrong Header.LastCommitHash');
  if (!bytesEqual(b.header.dataHash, hashTxs(b.data.txs))) throw invalid('wrong Header.DataHash');
  if (!bytesEqual(b.header.evidenceHash, hashEvidence(b.evidence))) throw invalid('wrong Header.EvidenceHash');
}

// ---------------------------------------------------------------------------------------------
// BlockMeta (block store)

export function encodeBlockMeta(m: BlockMeta): Uint8Array {
  return encodeProto((w) => {
    w.messageAlways(1, (x) => writeBlockId(x, m.blockId));
    w.varintField(2, m.blockSize);
    w.messageAlways(3, (x) => writeHeader(x, m.header));
    w.varintField(4, m.numTxs);
  }, 700);
}

export function decodeBlockMeta(bytes: Uint8Array): BlockMeta {
  const m: BlockMeta = { blockId: zeroBlockId(), blockSize: 0, header: emptyHeader(), numTxs: 0 };
  readMessage(bytes, (field, wire, r) => {
    if (field === 1 && wire === 2) m.blockId = readBlockId(r.bytes());
    else if (field === 2 && wire === 0) m.blockSize = r.int64Number();
    else if (field === 3 && wire === 2) m.header = readHeader(r.bytes());
    else if (field === 4 && wire === 0) m.numTxs = r.int64Number();
    else r.skip(wire);
  });
  return m;
}
