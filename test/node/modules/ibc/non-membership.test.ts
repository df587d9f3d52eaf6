/**
 * ICS-23 non-membership of a chained proof (ibc-go MerkleProof.VerifyNonMembership): the store's
 * absence proofs of a key between two leaves, before the first and after the last verify against
 * the app hash; a present key, another key, a tampered neighbour, a proof of existence or another
 * root do not.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { CommitmentProofSchema, type CommitmentProof } from '../../../../src/gen/cosmos/ics23/v1/proofs_pb.js';
import { verifyChainedNonMembership } from '../../../../src/node/modules/ibc/core/commitment/merkle.js';
import { sdkProofSpecs } from '../../../../src/node/modules/ibc/core/commitment/specs.js';
import { memoryDatabase } from '../../../../src/node/store/db/database.js';
import { openCommitMultiStore, type RootMultiStore } from '../../../../src/node/store/index.js';

const utf8 = new TextEncoder();
let store: RootMultiStore;
let appHash: Uint8Array;
let version: number;

beforeAll(async () => {
  store = await openCommitMultiStore(memoryDatabase(), { stores: ['acc', 'ibc'], syncCommits: false });
  const branch = store.branch();
  for (let i = 0; i < 40; i += 2) branch.getStore('ibc').set(utf8.encode(`receipts/ports/transfer/channels/channel-0/sequences/${String(i).padStart(2, '0')}`), Uint8Array.of(1));
  branch.getStore('acc').set(utf8.encode('a'), Uint8Array.of(1));
  branch.write();
  const committed = await store.commit();
  appHash = committed.hash;
  version = committed.version;
});

async function proofOf(key: string): Promise<CommitmentProof[]> {
  const proof = await store.prove(version, 'ibc', utf8.encode(key));
  return proof.ops.map((op) => fromBinary(CommitmentProofSchema, op.data));
}

const path = (key: string) => ['ibc', key];
const key = (n: string) => `receipts/ports/transfer/channels/channel-0/sequences/${n}`;

describe('verifyChainedNonMembership', () => {
  test.each([
    ['between two leaves', key('07')],
    ['before the first leaf', 'acks/ports/transfer/channels/channel-0/sequences/1'],
    ['after the last leaf', 'zzz'],
  ])('an absent key %s is proven absent', async (_name, absent) => {
    const proofs = await proofOf(absent);
    expect(proofs[0]!.proof.case).toBe('nonexist');
    expect(() => verifyChainedNonMembership(sdkProofSpecs(), appHash, path(absent), proofs)).not.toThrow();
  });

  test('the proof of one absent key does not prove another, nor a present one', async () => {
    const proofs = await proofOf(key('07'));
    expect(() => verifyChainedNonMembership(sdkProofSpecs(), appHash, path(key('09')), proofs)).toThrow(`could not verify absence of key ${key('09')}. Please ensure that the path is correct.: invalid proof`);
    expect(() => verifyChainedNonMembership(sdkProofSpecs(), appHash, path(key('08')), proofs)).toThrow('could not verify absence of key');
  });

  test('a proof of existence, a tampered neighbour or another root is refused', async () => {
    const present = await proofOf(key('08'));
    expect(() => verifyChainedNonMembership(sdkProofSpecs(), appHash, path(key('08')), present)).toThrow('expected proof type: *ics23.CommitmentProof_Nonexist, got: exist: invalid proof');

    const proofs = await proofOf(key('07'));
    const tampered = fromBinary(CommitmentProofSchema, toBinary(CommitmentProofSchema, proofs[0]!));
    if (tampered.proof.case !== 'nonexist') throw new Error('not a non-existence proof');
    tampered.proof.value.right!.value = Uint8Array.of(2);
    expect(() => verifyChainedNonMembership(sdkProofSpecs(), appHash, path(key('07')), [tampered, proofs[1]!])).toThrow('invalid proof');

    const otherRoot = create(CommitmentProofSchema, proofs[1]!);
    expect(() => verifyChainedNonMembership(sdkProofSpecs(), new Uint8Array(32), path(key('07')), [proofs[0]!, otherRoot])).toThrow('proof did not commit to expected root');
    // Neighbours that are not adjacent (a leaf skipped) are refused.
    const farther = await proofOf(key('05'));
    const gap = fromBinary(CommitmentProofSchema, toBinary(CommitmentProofSchema, proofs[0]!));
    if (gap.proof.case !== 'nonexist' || farther[0]!.proof.case !== 'nonexist') throw new Error('not a non-existence proof');
    gap.proof.value.left = farther[0]!.proof.value.left;
    expect(() => verifyChainedNonMembership(sdkProofSpecs(), appHash, path(key('07')), [gap, proofs[1]!])).toThrow('could not verify absence of key');
  });
});
