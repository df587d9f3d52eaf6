import { describe, expect, it } from '@jest/globals';
import { ValidatorSet, newValidator, type Validator } from '../../../src/node/consensus/types/validator.js';
import { Ed25519PrivateKey } from '../../../src/node/consensus/types/keys.js';
import { BlockIdFlag, type Commit } from '../../../src/node/consensus/types/block.js';
import { SignedMsgType, voteSignBytes, type Vote } from '../../../src/node/consensus/types/vote.js';
import { timestampNow } from '../../../src/node/consensus/types/time.js';
import { VoteSet } from '../../../src/node/consensus/types/voteSet.js';
import { isConsensusError } from '../../../src/node/consensus/errors.js';

const enc = new TextEncoder();

/** A validator with an arbitrary address (as in CometBFT's validator_set_test.go newValidator). */
function rawValidator(address: string | Uint8Array, power: bigint): Validator {
  return {
    address: typeof address === 'string' ? enc.encode(address) : address,
    pubKey: { type: 'ed25519', bytes: new Uint8Array(32) },
    votingPower: power,
    proposerPriority: 0n,
  };
}

const name = (v: Validator): string => new TextDecoder().decode(v.address);

describe('ValidatorSet proposer rotation (CometBFT validator_set_test.go)', () => {
  it('TestProposerSelection1: the 99-round sequence for powers 1000/300/330', () => {
    const set = ValidatorSet.create([rawValidator('foo', 1000n), rawValidator('bar', 300n), rawValidator('baz', 330n)]);
    const proposers: string[] = [];
    for (let i = 0; i < 99; i++) {
      proposers.push(name(set.getProposer()));
      set.incrementProposerPriority(1);
    }
    const expected =
      'foo baz foo bar foo foo baz foo bar foo foo baz foo foo bar foo baz foo foo bar' +
      ' foo foo baz foo bar foo foo baz foo bar foo foo baz foo foo bar foo baz foo foo bar' +
      ' foo baz foo foo bar foo baz foo foo bar foo baz foo foo foo baz bar foo foo foo baz' +
      ' foo bar foo foo baz foo bar foo foo baz foo bar foo foo baz foo bar foo foo baz foo' +
      ' foo bar foo baz foo foo bar foo baz foo foo bar foo baz foo foo';
    expect(proposers.join(' ')).toBe(expected);
  });

  it('TestProposerSelection2: equal powers go in address order; 401 vs 100 proposes twice in a row', () => {
    const addr = (n: number): Uint8Array => {
      const a = new Uint8Array(20);
      a[19] = n;
      return a;
    };
    let set = ValidatorSet.create([rawValidator(addr(0), 100n), rawValidator(addr(1), 100n), rawValidator(addr(2), 100n)]);
    for (let i = 0; i < 15; i++) {
      expect(set.getProposer().address[19]).toBe(i % 3);
      set.incrementProposerPriority(1);
    }
    set = ValidatorSet.create([rawValidator(addr(0), 100n), rawValidator(addr(1), 100n), rawValidator(addr(2), 400n)]);
    expect(set.getProposer().address[19]).toBe(2);
    set.incrementProposerPriority(1);
    expect(set.getProposer().address[19]).toBe(0);
    set = ValidatorSet.create([rawValidator(addr(0), 100n), rawValidator(addr(1), 100n), rawValidator(addr(2), 401n)]);
    expect(set.getProposer().address[19]).toBe(2);
    set.incrementProposerPriority(1);
    expect(set.getProposer().address[19]).toBe(2);
    set.incrementProposerPriority(1);
    expect(set.getProposer().address[19]).toBe(0);
  });

  it('proposer frequency is proportional to power over many rounds', () => {
    const set = ValidatorSet.create([rawValidator('a', 1n), rawValidator('b', 2n), rawValidator('c', 7n)]);
    const counts = new Map<string, number>();
    for (let i = 0; i < 1000; i++) {
      const p = name(set.getProposer());
      counts.set(p, (counts.get(p) ?? 0) + 1);
      set.incrementProposerPriority(1);
    }
    expect(counts.get('a')).toBe(100);
    expect(counts.get('b')).toBe(200);
    expect(counts.get('c')).toBe(700);
  });

  it('centres priorities with Euclidean (floor) division of a negative sum, like Go big.Int', () => {
    const three = ValidatorSet.restore(
      [
        { ...rawValidator('a', 1n), proposerPriority: -10n },
        { ...rawValidator('b', 1n), proposerPriority: 1n },
        { ...rawValidator('c', 1n), proposerPriority: 1n },
      ],
      undefined,
    );
    three.incrementProposerPriority(1);
    // Rescale: diff 11 > 2*total 6, ratio ceil(11/6)=2 → -5, 0, 0 (int64 truncation).
    // Centre: sum -5, avg floor(-5/3) = -2 (truncation would give -1) → -3, 2, 2.
    // Increment: +1 → -2, 3, 3; b (lower address) proposes: 3 - 3 = 0.
    expect(three.validators.map((v) => v.proposerPriority)).toEqual([-2n, 0n, 3n]);
    expect(name(three.getProposer())).toBe('b');
  });

  it('applies app updates: add, change power, remove; new validators start at -1.125 x total', () => {
    const keys = [Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()];
    const set = ValidatorSet.create([newValidator(keys[0]!.pubKey, 10n), newValidator(keys[1]!.pubKey, 10n)]);
    const hashBefore = Buffer.from(set.hash()).toString('hex');
    set.updateWithChangeSet([newValidator(keys[2]!.pubKey, 20n)]);
    expect(set.size).toBe(3);
    expect(set.totalVotingPower()).toBe(40n);
    expect(set.validators[0]!.votingPower).toBe(20n); // sorted by power desc
    expect(Buffer.from(set.hash()).toString('hex')).not.toBe(hashBefore);
    set.updateWithChangeSet([{ ...newValidator(keys[0]!.pubKey, 1n), votingPower: 0n }]);
    expect(set.size).toBe(2);
    expect(set.hasAddress(keys[0]!.address)).toBe(false);
    expect(() => set.updateWithChangeSet([{ ...newValidator(keys[0]!.pubKey, 1n), votingPower: 0n }])).toThrow(/failed to find validator/);
    expect(() => set.updateWithChangeSet(set.validators.map((v) => ({ ...v, votingPower: 0n })))).toThrow(/empty set/);
    expect(() => set.updateWithChangeSet([{ ...newValidator(keys[1]!.pubKey, 1n), votingPower: -1n }])).toThrow(/negative/);
  });
});

describe('VoteSet and commit verification', () => {
  const chainId = 'c';
  const keys = Array.from({ length: 4 }, () => Ed25519PrivateKey.generate());
  const set = ValidatorSet.create(keys.map((k) => newValidator(k.pubKey, 10n)));
  const blockId = { hash: new Uint8Array(32).fill(5), partSetHeader: { total: 1, hash: new Uint8Array(32).fill(6) } };
  const nilId = { hash: new Uint8Array(0), partSetHeader: { total: 0, hash: new Uint8Array(0) } };
  const keyOf = (i: number): Ed25519PrivateKey => keys.find((k) => Buffer.from(k.address).equals(Buffer.from(set.validators[i]!.address)))!;
  function signed(i: number, type: SignedMsgType.Prevote | SignedMsgType.Precommit, id = blockId): Vote {
    const v: Vote = {
      type,
      height: 3,
      round: 0,
      blockId: id,
      timestamp: timestampNow(),
      validatorAddress: set.validators[i]!.address,
      validatorIndex: i,
      signature: new Uint8Array(0),
      extension: new Uint8Array(0),
      extensionSignature: new Uint8Array(0),
    };
    v.signature = keyOf(i).sign(voteSignBytes(chainId, v));
    return v;
  }

  it('needs more than 2/3 of the power for a majority; nil votes count for "any"', () => {
    const vs = new VoteSet(chainId, 3, 0, SignedMsgType.Precommit, set);
    vs.addVote(signed(0, SignedMsgType.Precommit));
    vs.addVote(signed(1, SignedMsgType.Precommit));
    expect(vs.hasTwoThirdsMajority()).toBe(false);
    vs.addVote(signed(2, SignedMsgType.Precommit, nilId));
    expect(vs.hasTwoThirdsAny()).toBe(true);
    expect(vs.hasTwoThirdsMajority()).toBe(false);
    vs.addVote(signed(3, SignedMsgType.Precommit));
    expect(vs.twoThirdsMajority()?.hash).toEqual(blockId.hash);
    const commit: Commit = vs.makeCommit();
    expect(commit.signatures.map((s) => s.blockIdFlag)).toEqual([BlockIdFlag.Commit, BlockIdFlag.Commit, BlockIdFlag.Nil, BlockIdFlag.Commit]);
    expect(() => set.verifyCommit(chainId, blockId, 3, commit)).not.toThrow();
    const tampered = { ...commit, signatures: commit.signatures.map((s, i) => (i === 0 ? { ...s, signature: new Uint8Array(64) } : s)) };
    expect(() => set.verifyCommit(chainId, blockId, 3, tampered)).toThrow(/wrong signature/);
    const short = { ...commit, signatures: commit.signatures.map((s, i) => (i < 2 ? s : { ...s, blockIdFlag: BlockIdFlag.Absent, validatorAddress: new Uint8Array(0), signature: new Uint8Array(0) })) };
    expect(() => set.verifyCommit(chainId, blockId, 3, short)).toThrow(/insufficient voting power/);
  });

  it('duplicates are ignored, conflicting votes are refused, bad signatures rejected', () => {
    const vs = new VoteSet(chainId, 3, 0, SignedMsgType.Prevote, set);
    const v = signed(0, SignedMsgType.Prevote);
    expect(vs.addVote(v).added).toBe(true);
    expect(vs.addVote(v).added).toBe(false);
    try {
      vs.addVote(signed(0, SignedMsgType.Prevote, nilId));
      throw new Error('expected conflict');
    } catch (err) {
      expect(isConsensusError(err, 'CONFLICTING_VOTE')).toBe(true);
    }
    const forged = { ...signed(1, SignedMsgType.Prevote), signature: new Uint8Array(64).fill(1) };
    expect(() => vs.addVote(forged)).toThrow(/invalid signature/);
    expect(() => vs.addVote({ ...signed(1, SignedMsgType.Prevote), validatorIndex: 2 })).toThrow(/does not match address/);
  });
});
