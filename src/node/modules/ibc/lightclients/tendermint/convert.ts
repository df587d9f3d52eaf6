/**
 * From the 07-tendermint protobuf messages (generated tendermint.types.*) to the consensus
 * engine's own CometBFT types, so that header hashing, vote sign bytes and validator-set hashing
 * are the engine's code (SignedHeaderFromProto, ValidatorSetFromProto, CommitFromProto).
 * Conversion goes through the canonical bytes: the generated message is encoded and the engine's
 * decoder reads it, so both sides agree on every field.
 */
import { toBinary } from '@bufbuild/protobuf';
import { CommitSchema, HeaderSchema, type SignedHeader as ProtoSignedHeader } from '../../../../../gen/tendermint/types/types_pb.js';
import type { ValidatorSet as ProtoValidatorSet } from '../../../../../gen/tendermint/types/validator_pb.js';
import { decodeCommit, readHeader, validateCommitBasic, validateHeaderBasic, type Commit, type Header } from '../../../../consensus/types/block.js';
import { bytesEqual, toHexUpper } from '../../../../consensus/types/bytes.js';
import { pubKeyAddress, validatePubKey, type PubKey } from '../../../../consensus/types/keys.js';
import { ValidatorSet, type Validator } from '../../../../consensus/types/validator.js';

/** A conversion or basic-validation failure: the reason, in CometBFT's words. */
export class LightClientInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LightClientInputError';
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export interface TmSignedHeader {
  header: Header;
  commit: Commit;
}

/**
 * Conversions of one message object are done once: a header is validated by the Msg's basic
 * checks, then verified, and its trusted validators are checked against the consensus state and
 * then used — each step asks for the same conversion. Results are never mutated by the callers.
 */
const convertedHeaders = new WeakMap<ProtoSignedHeader, TmSignedHeader>();
const convertedSets = new WeakMap<ProtoValidatorSet, ValidatorSet>();

/** SignedHeaderFromProto: both parts must be present. */
export function signedHeaderFromProto(signed: ProtoSignedHeader | undefined): TmSignedHeader {
  if (signed === undefined) throw new LightClientInputError('nil SignedHeader');
  const known = convertedHeaders.get(signed);
  if (known !== undefined) return known;
  const converted = convertSignedHeader(signed);
  convertedHeaders.set(signed, converted);
  return converted;
}

function convertSignedHeader(signed: ProtoSignedHeader): TmSignedHeader {
  if (signed.header === undefined) throw new LightClientInputError('nil Header');
  if (signed.commit === undefined) throw new LightClientInputError('nil Commit');
  try {
    return { header: readHeader(toBinary(HeaderSchema, signed.header)), commit: decodeCommit(toBinary(CommitSchema, signed.commit)) };
  } catch (err) {
    throw new LightClientInputError(messageOf(err));
  }
}

/** The commit of a proto signed header alone (CommitFromProto). */
export function commitFromProto(signed: ProtoSignedHeader | undefined): Commit {
  if (signed?.commit === undefined) throw new LightClientInputError('nil Commit');
  try {
    return decodeCommit(toBinary(CommitSchema, signed.commit));
  } catch (err) {
    throw new LightClientInputError(messageOf(err));
  }
}

/**
 * ValidatorSetFromProto + ValidateBasic: a non-empty list, every validator with a public key
 * its address derives from and a non-negative power, the proposer one of them. The order is
 * kept (it is the order the set was hashed and the commit signed in).
 */
export function validatorSetFromProto(set: ProtoValidatorSet | undefined): ValidatorSet {
  if (set === undefined) throw new LightClientInputError('nil validator set');
  const known = convertedSets.get(set);
  if (known !== undefined) return known;
  const converted = convertValidatorSet(set);
  convertedSets.set(set, converted);
  return converted;
}

function convertValidatorSet(set: ProtoValidatorSet): ValidatorSet {
  if (set.validators.length === 0) throw new LightClientInputError('validator set is nil or empty');
  const validators: Validator[] = set.validators.map((v, index) => {
    const sum = v.pubKey?.sum;
    let pubKey: PubKey;
    if (sum?.case === 'ed25519') pubKey = { type: 'ed25519', bytes: sum.value };
    else if (sum?.case === 'secp256k1') pubKey = { type: 'secp256k1', bytes: sum.value };
    else throw new LightClientInputError(`invalid validator #${index}: validator does not have a public key`);
    try {
      validatePubKey(pubKey);
    } catch (err) {
      throw new LightClientInputError(`invalid validator #${index}: ${messageOf(err)}`);
    }
    if (v.votingPower < 0n) throw new LightClientInputError(`invalid validator #${index}: validator has negative voting power`);
    const derived = pubKeyAddress(pubKey);
    if (v.address.length !== 20) throw new LightClientInputError(`invalid validator #${index}: validator address is the wrong size: ${toHexUpper(v.address)}`);
    if (!bytesEqual(derived, v.address)) throw new LightClientInputError(`invalid validator #${index}: validator address is incorrectly derived from pubkey. Exp: ${toHexUpper(derived)}, got ${toHexUpper(v.address)}`);
    return { address: v.address, pubKey, votingPower: v.votingPower, proposerPriority: v.proposerPriority };
  });
  const proposer = set.proposer;
  if (proposer !== undefined && !validators.some((v) => bytesEqual(v.address, proposer.address))) {
    throw new LightClientInputError('proposer is not in the validator set');
  }
  try {
    const out = ValidatorSet.restore(validators, proposer?.address);
    out.totalVotingPower();
    return out;
  } catch (err) {
    throw new LightClientInputError(messageOf(err));
  }
}

/** SignedHeader.ValidateBasic(chainID): header and commit valid, of this chain, the commit for this header. */
export function validateSignedHeader(signed: TmSignedHeader, chainId: string, hashOf: (h: Header) => Uint8Array): void {
  try {
    validateHeaderBasic(signed.header);
    validateCommitBasic(signed.commit);
  } catch (err) {
    throw new LightClientInputError(messageOf(err));
  }
  if (signed.header.chainId !== chainId) throw new LightClientInputError(`header belongs to another chain "${signed.header.chainId}", not "${chainId}"`);
  if (signed.commit.height !== signed.header.height) throw new LightClientInputError(`header and commit height mismatch: ${signed.header.height} vs ${signed.commit.height}`);
  const hash = hashOf(signed.header);
  if (!bytesEqual(hash, signed.commit.blockId.hash)) throw new LightClientInputError(`commit signs block ${toHexUpper(signed.commit.blockId.hash)}, header is block ${toHexUpper(hash)}`);
}
