/** last_results_hash (types/results.go): Merkle root over the deterministic fields of each ExecTxResult. */
import type { ExecTxResult } from '../../abci/types.js';
import { merkleProof, merkleRoot, type MerkleProof } from './merkle.js';
import { encodeProto } from './proto.js';

/** ExecTxResult keeping only code(1), data(2), gas_wanted(5), gas_used(6). */
export function deterministicTxResultBytes(r: ExecTxResult): Uint8Array {
  return encodeProto((w) => {
    w.varintField(1, r.code);
    w.bytesField(2, r.data);
    w.varintField(5, r.gasWanted);
    w.varintField(6, r.gasUsed);
  }, 32 + r.data.length);
}

export function hashTxResults(results: readonly ExecTxResult[]): Uint8Array {
  return merkleRoot(results.map(deterministicTxResultBytes));
}

export function txResultProof(results: readonly ExecTxResult[], index: number): { root: Uint8Array; proof: MerkleProof } {
  return merkleProof(results.map(deterministicTxResultBytes), index);
}
