/**
 * Duplicate-vote evidence verification (verify in CometBFT's evidence pool): the votes, their
 * signatures and the powers are always checked; the evidence time must equal the header time of
 * its height when the node has that header, and cannot be checked below a state-synced node's
 * first stored block (where it arrives in blocks that +2/3 of the validators committed).
 */
import { verifyDuplicateVote, newDuplicateVoteEvidence } from '../../../src/node/consensus/evidence/evidence.js';
import { FilePV } from '../../../src/node/consensus/privval.js';
import { Ed25519PrivateKey } from '../../../src/node/consensus/types/keys.js';
import { ValidatorSet, newValidator } from '../../../src/node/consensus/types/validator.js';
import type { Vote } from '../../../src/node/consensus/types/vote.js';

const CHAIN = 'evidence-test';
const key = Ed25519PrivateKey.generate();
const validators = ValidatorSet.create([newValidator(key.pubKey, 10n)]);
const blockTime = { seconds: 1_700_000_000, nanos: 0 };

function vote(hashByte: number): Vote {
  const v: Vote = {
    type: 1,
    height: 5,
    round: 0,
    blockId: { hash: new Uint8Array(32).fill(hashByte), partSetHeader: { total: 1, hash: new Uint8Array(32).fill(hashByte) } },
    timestamp: blockTime,
    validatorAddress: key.address,
    validatorIndex: 0,
    signature: new Uint8Array(),
    extension: new Uint8Array(),
    extensionSignature: new Uint8Array(),
  };
  // Two signers with the same key: the double sign that the privval alone would refuse.
  new FilePV(key).signVote(CHAIN, v);
  return v;
}

describe('duplicate-vote evidence', () => {
  const evidence = newDuplicateVoteEvidence(vote(1), vote(2), blockTime, validators)!;

  test('verifies against the header time of its height', () => {
    expect(() => verifyDuplicateVote(evidence, CHAIN, validators, blockTime)).not.toThrow();
    expect(() => verifyDuplicateVote(evidence, CHAIN, validators, { seconds: blockTime.seconds + 1, nanos: 0 })).toThrow('evidence has a different time to the block it is associated with');
  });

  test('without the header (below a state-synced node’s first block) the votes are still checked', () => {
    expect(() => verifyDuplicateVote(evidence, CHAIN, validators, undefined)).not.toThrow();
    const forged = { ...evidence, voteB: { ...evidence.voteB, signature: new Uint8Array(64) } };
    expect(() => verifyDuplicateVote(forged, CHAIN, validators, undefined)).toThrow();
    expect(() => verifyDuplicateVote(evidence, 'other-chain', validators, undefined)).toThrow();
  });
});
