/**
 * Signed CometBFT headers for light-client tests and benchmarks: a test validator set of
 * ed25519 keys (@noble/curves) signs precommits over the consensus engine's vote sign bytes, and
 * the result is packaged as 07-tendermint Headers (signed header, validator set, trusted height,
 * trusted validators) exactly as a relayer builds them from a chain's `commit` and `validators`.
 */
import { create, fromBinary } from '@bufbuild/protobuf';
import { DurationSchema, TimestampSchema } from '@bufbuild/protobuf/wkt';
import { ed25519 } from '@noble/curves/ed25519.js';
import { HeightSchema, type Height } from '../../src/gen/ibc/core/client/v1/client_pb.js';
import { MerkleRootSchema } from '../../src/gen/ibc/core/commitment/v1/commitment_pb.js';
import { ClientStateSchema, ConsensusStateSchema, FractionSchema, HeaderSchema, MisbehaviourSchema, type ClientState, type ConsensusState, type Header } from '../../src/gen/ibc/lightclients/tendermint/v1/tendermint_pb.js';
import { CommitSchema, HeaderSchema as TmHeaderSchema, SignedHeaderSchema } from '../../src/gen/tendermint/types/types_pb.js';
import { ValidatorSchema, ValidatorSetSchema, type ValidatorSet as ProtoValidatorSet } from '../../src/gen/tendermint/types/validator_pb.js';
import { PublicKeySchema } from '../../src/gen/tendermint/crypto/keys_pb.js';
import { BLOCK_PROTOCOL, BlockIdFlag, encodeCommit, encodeHeader, hashHeader, type Commit, type CommitSig, type Header as TmHeader } from '../../src/node/consensus/types/block.js';
import { sha256 } from '../../src/node/consensus/types/bytes.js';
import { pubKeyAddress } from '../../src/node/consensus/types/keys.js';
import type { Timestamp } from '../../src/node/consensus/types/time.js';
import { ValidatorSet, type Validator } from '../../src/node/consensus/types/validator.js';
import { sdkProofSpecs } from '../../src/node/modules/ibc/core/commitment/specs.js';
import { SignedMsgType, voteSignBytes } from '../../src/node/consensus/types/vote.js';

export interface TestValidator {
  secret: Uint8Array;
  validator: Validator;
}

/** A deterministic validator with the given power (the seed names it). */
export function testValidator(seed: string, power: bigint): TestValidator {
  const secret = sha256(new TextEncoder().encode(`ibc-test-validator/${seed}`));
  const pubKey = { type: 'ed25519' as const, bytes: ed25519.getPublicKey(secret) };
  return { secret, validator: { address: pubKeyAddress(pubKey), pubKey, votingPower: power, proposerPriority: 0n } };
}

export function validatorSetOf(vals: readonly TestValidator[]): ValidatorSet {
  return ValidatorSet.create(vals.map((v) => ({ ...v.validator })));
}

export function protoValidatorSet(set: ValidatorSet): ProtoValidatorSet {
  const toProto = (v: Validator) =>
    create(ValidatorSchema, {
      address: v.address,
      pubKey: create(PublicKeySchema, { sum: { case: 'ed25519', value: v.pubKey.bytes } }),
      votingPower: v.votingPower,
      proposerPriority: v.proposerPriority,
    });
  return create(ValidatorSetSchema, { validators: set.validators.map(toProto), proposer: toProto(set.getProposer()), totalVotingPower: set.totalVotingPower() });
}

export interface SignedBlock {
  header: TmHeader;
  commit: Commit;
  validators: ValidatorSet;
}

export interface HeaderOptions {
  chainId: string;
  height: number;
  time: Timestamp;
  validators: ValidatorSet;
  nextValidators: ValidatorSet;
  /** Keys that sign (by address hex); default all of `validators`. */
  signers: readonly TestValidator[];
  appHash?: Uint8Array;
}

/** A header at `height` signed (precommits for its block) by `signers`; absent slots for the others. */
export function signBlock(options: HeaderOptions): SignedBlock {
  const header: TmHeader = {
    version: { block: BLOCK_PROTOCOL, app: 0n },
    chainId: options.chainId,
    height: options.height,
    time: options.time,
    lastBlockId: { hash: sha256(new TextEncoder().encode(`block ${options.height - 1}`)), partSetHeader: { total: 1, hash: sha256(new TextEncoder().encode(`parts ${options.height - 1}`)) } },
    lastCommitHash: sha256(new Uint8Array(0)),
    dataHash: sha256(new Uint8Array(0)),
    validatorsHash: options.validators.hash(),
    nextValidatorsHash: options.nextValidators.hash(),
    consensusHash: sha256(new TextEncoder().encode('params')),
    appHash: options.appHash ?? sha256(new TextEncoder().encode(`app ${options.height}`)),
    lastResultsHash: sha256(new Uint8Array(0)),
    evidenceHash: sha256(new Uint8Array(0)),
    proposerAddress: options.validators.validators[0]!.address,
  };
  const blockId = { hash: hashHeader(header), partSetHeader: { total: 1, hash: sha256(new TextEncoder().encode(`parts ${options.height}`)) } };
  const bySigner = new Map(options.signers.map((s) => [Buffer.from(s.validator.address).toString('hex'), s]));
  const signatures: CommitSig[] = options.validators.validators.map((v) => {
    const signer = bySigner.get(Buffer.from(v.address).toString('hex'));
    if (signer === undefined) return { blockIdFlag: BlockIdFlag.Absent, validatorAddress: new Uint8Array(0), timestamp: { seconds: -62135596800, nanos: 0 }, signature: new Uint8Array(0) };
    const timestamp = { seconds: options.time.seconds + 1, nanos: 0 };
    const bytes = voteSignBytes(options.chainId, { type: SignedMsgType.Precommit, height: options.height, round: 0, blockId, timestamp });
    return { blockIdFlag: BlockIdFlag.Commit, validatorAddress: v.address, timestamp, signature: ed25519.sign(bytes, signer.secret) };
  });
  return { header, commit: { height: options.height, round: 0, blockId, signatures }, validators: options.validators };
}

export function height(revisionNumber: bigint, revisionHeight: bigint): Height {
  return create(HeightSchema, { revisionNumber, revisionHeight });
}

/** The 07-tendermint Header a relayer submits for `block`, trusting `trustedHeight` and its validators. */
export function ibcHeader(block: SignedBlock, trustedHeight: Height, trustedValidators: ValidatorSet): Header {
  return create(HeaderSchema, {
    signedHeader: create(SignedHeaderSchema, {
      header: fromBinary(TmHeaderSchema, encodeHeader(block.header)),
      commit: fromBinary(CommitSchema, encodeCommit(block.commit)),
    }),
    validatorSet: protoValidatorSet(block.validators),
    trustedHeight,
    trustedValidators: protoValidatorSet(trustedValidators),
  });
}

export function misbehaviour(header1: Header, header2: Header) {
  return create(MisbehaviourSchema, { header1, header2 });
}

const DAY_S = 86_400n;

/** A client state as @confio/relayer builds it: trust 1/3, trusting 2/3 of unbonding, drift 20 s. */
export function testClientState(chainId: string, latest: Height, overrides: Partial<ClientState> = {}): ClientState {
  const cs = create(ClientStateSchema, {
    chainId,
    trustLevel: create(FractionSchema, { numerator: 1n, denominator: 3n }),
    trustingPeriod: create(DurationSchema, { seconds: 14n * DAY_S }),
    unbondingPeriod: create(DurationSchema, { seconds: 21n * DAY_S }),
    maxClockDrift: create(DurationSchema, { seconds: 20n }),
    frozenHeight: height(0n, 0n),
    latestHeight: latest,
    proofSpecs: sdkProofSpecs(),
    upgradePath: ['upgrade', 'upgradedIBCState'],
  });
  return Object.assign(cs, overrides);
}

export function consensusStateOf(block: SignedBlock): ConsensusState {
  return create(ConsensusStateSchema, {
    timestamp: create(TimestampSchema, { seconds: BigInt(block.header.time.seconds), nanos: block.header.time.nanos }),
    root: create(MerkleRootSchema, { hash: block.header.appHash }),
    nextValidatorsHash: block.header.nextValidatorsHash,
  });
}
