/**
 * The ICS-23 proof specs of a Cosmos SDK chain (ibc-go's commitmenttypes.GetSDKSpecs): the IAVL
 * spec for a key in a module store, then the Tendermint simple-Merkle spec for the store in the
 * app hash. Both leaves: prefix 0x00, SHA-256, value pre-hashed with SHA-256, key not pre-hashed,
 * protobuf varint lengths. IAVL inner nodes: prefixes of 4–12 bytes, children of 33 bytes;
 * simple-Merkle inner nodes: prefix 0x01, children of 32 bytes.
 */
import { create } from '@bufbuild/protobuf';
import { HashOp, InnerSpecSchema, LeafOpSchema, LengthOp, ProofSpecSchema, type ProofSpec } from '../../../../../gen/cosmos/ics23/v1/proofs_pb.js';

function leaf() {
  return create(LeafOpSchema, { hash: HashOp.SHA256, prehashKey: HashOp.NO_HASH, prehashValue: HashOp.SHA256, length: LengthOp.VAR_PROTO, prefix: Uint8Array.of(0) });
}

export function iavlSpec(): ProofSpec {
  return create(ProofSpecSchema, {
    leafSpec: leaf(),
    innerSpec: create(InnerSpecSchema, { childOrder: [0, 1], minPrefixLength: 4, maxPrefixLength: 12, childSize: 33, hash: HashOp.SHA256 }),
  });
}

export function tendermintSpec(): ProofSpec {
  return create(ProofSpecSchema, {
    leafSpec: leaf(),
    innerSpec: create(InnerSpecSchema, { childOrder: [0, 1], minPrefixLength: 1, maxPrefixLength: 1, childSize: 32, hash: HashOp.SHA256 }),
  });
}

/** [iavlSpec, tendermintSpec]: what a client of a Cosmos SDK chain proves its state with. */
export function sdkProofSpecs(): ProofSpec[] {
  return [iavlSpec(), tendermintSpec()];
}
