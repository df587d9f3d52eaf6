/**
 * Verifies `abci_query … prove=true` proof ops the way an IBC light client / CosmJS does, with the
 * published @confio/ics23 library (not our code): op[0] `ics23:iavl` against the store root with
 * iavlSpec, op[1] `ics23:simple` for store name → store root against the app hash with
 * tendermintSpec.
 */
import { calculateExistenceRoot, iavlSpec, ics23, tendermintSpec, verifyMembership, verifyNonMembership } from '@confio/ics23';

export interface ProofOpLike {
  type: string;
  key: Uint8Array;
  data: Uint8Array;
}

/** True when `ops` prove key → value (or absence when value is undefined) in `store` under `appHash`. */
export function verifyStoreProof(ops: readonly ProofOpLike[], appHash: Uint8Array, store: string, key: Uint8Array, value: Uint8Array | undefined): boolean {
  if (ops.length !== 2 || ops[0]!.type !== 'ics23:iavl' || ops[1]!.type !== 'ics23:simple') return false;
  if (Buffer.compare(Buffer.from(ops[0]!.key), Buffer.from(key)) !== 0) return false;
  if (Buffer.from(ops[1]!.key).toString() !== store) return false;
  const iavl = ics23.CommitmentProof.decode(ops[0]!.data);
  const simple = ics23.CommitmentProof.decode(ops[1]!.data);
  let storeRoot: Uint8Array;
  if (value !== undefined) {
    if (!iavl.exist) return false;
    storeRoot = calculateExistenceRoot(iavl.exist);
    if (!verifyMembership(iavl, iavlSpec, storeRoot, key, value)) return false;
  } else {
    const side = iavl.nonexist?.left ?? iavl.nonexist?.right;
    if (!side) return false;
    storeRoot = calculateExistenceRoot(side);
    if (!verifyNonMembership(iavl, iavlSpec, storeRoot, key)) return false;
  }
  return verifyMembership(simple, tendermintSpec, appHash, new TextEncoder().encode(store), storeRoot);
}

/** True when an `ics23:iavl` op's CommitmentProof is an existence proof. */
export function proofSaysExists(data: Uint8Array): boolean {
  return ics23.CommitmentProof.decode(data).exist != null;
}
