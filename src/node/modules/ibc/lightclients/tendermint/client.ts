/**
 * The 07-tendermint light client (ibc-go v6 modules/light-clients/07-tendermint/types): client
 * state validation, status, initialisation, header updates (CheckHeaderAndUpdateState) with
 * misbehaviour detection, misbehaviour handling, and the consensus-state bookkeeping it keeps in
 * its client store (processed time and height, the height-ordered iteration keys, pruning of one
 * expired consensus state per update).
 */
import { create, equals, fromBinary, toBinary } from '@bufbuild/protobuf';
import { AnySchema, type Any } from '@bufbuild/protobuf/wkt';
import type { Height } from '../../../../../gen/ibc/core/client/v1/client_pb.js';
import { MerkleRootSchema } from '../../../../../gen/ibc/core/commitment/v1/commitment_pb.js';
import {
  ClientStateSchema,
  ConsensusStateSchema,
  HeaderSchema,
  MisbehaviourSchema,
  type ClientState,
  type ConsensusState,
  type Header,
  type Misbehaviour,
} from '../../../../../gen/ibc/lightclients/tendermint/v1/tendermint_pb.js';
import { hashHeader, type BlockId } from '../../../../consensus/types/block.js';
import { bytesEqual, toHexUpper } from '../../../../consensus/types/bytes.js';
import { anyPack } from '../../../../codec/any.js';
import type { Context } from '../../../shared/context.js';
import { SdkErrors, isSdkError, type SdkError } from '../../../shared/errors.js';
import { ClientStoreView } from '../../core/client/clientStore.js';
import { ClientErrors } from '../../core/client/errors.js';
import { compareHeights, formatHeight, heightFromKeyBytes, heightKeyBytes, isRevisionFormat, isZeroHeight, newHeight, parseChainId, selfHeight, setRevisionNumber } from '../../core/client/height.js';
import { LightClientInputError, commitFromProto, signedHeaderFromProto, validateSignedHeader, validatorSetFromProto } from './convert.js';
import { TendermintErrors } from './errors.js';
import { LightVerificationError, formatDurationNs, timestampToNs, verifyCommitLight, verifyCommitLightTrusting, verifyLight } from './verify.js';

export const TENDERMINT_CLIENT_TYPE = '07-tendermint';
/** The height a frozen client's frozen_height is set to (FrozenHeight). */
export const FROZEN_HEIGHT: Height = newHeight(0n, 1n);
const MAX_CHAIN_ID_LENGTH = 50;
const KEY_PROCESSED_TIME = '/processedTime';
const KEY_PROCESSED_HEIGHT = '/processedHeight';

export type Status = 'Active' | 'Expired' | 'Frozen' | 'Unknown';

export { ClientStateSchema, ConsensusStateSchema, HeaderSchema, MisbehaviourSchema };
export type { ClientState, ConsensusState, Header, Misbehaviour };

function durationNs(d: { seconds: bigint; nanos: number } | undefined): bigint {
  return d === undefined ? 0n : d.seconds * 1_000_000_000n + BigInt(d.nanos);
}

export function blockTimeNs(ctx: Context): bigint {
  return BigInt(ctx.header.time.getTime()) * 1_000_000n;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

// ------------------------------------------------------------------------------ encoding

export function packClientState(cs: ClientState): Any {
  return anyPack(ClientStateSchema, cs);
}

export function packConsensusState(cs: ConsensusState): Any {
  return anyPack(ConsensusStateSchema, cs);
}

export function encodeAny(any: Any): Uint8Array {
  return toBinary(AnySchema, any);
}

export function decodeAny(bytes: Uint8Array): Any {
  return fromBinary(AnySchema, bytes);
}

// ------------------------------------------------------------------------------ validation

/** The latest height of a client state (never undefined on stored states). */
export function latestHeight(cs: ClientState): Height {
  return cs.latestHeight ?? newHeight(0n, 0n);
}

/** The problem with a client state (ClientState.Validate), or undefined. */
export function clientStateError(cs: ClientState): SdkError | Error | undefined {
  if (cs.chainId.trim() === '') return TendermintErrors.InvalidChainID.wrap('chain id cannot be empty string');
  if (cs.chainId.length > MAX_CHAIN_ID_LENGTH) return TendermintErrors.InvalidChainID.wrap(`chainID is too long; got: ${cs.chainId.length}, max: ${MAX_CHAIN_ID_LENGTH}`);
  const trust = cs.trustLevel;
  const numerator = trust?.numerator ?? 0n;
  const denominator = trust?.denominator ?? 0n;
  if (numerator * 3n < denominator || numerator > denominator || denominator === 0n) {
    return new Error(`trustLevel must be within [1/3, 1], given ${numerator}/${denominator}`);
  }
  const trusting = durationNs(cs.trustingPeriod);
  const unbonding = durationNs(cs.unbondingPeriod);
  if (trusting <= 0n) return TendermintErrors.InvalidTrustingPeriod.wrap('trusting period must be greater than zero');
  if (unbonding <= 0n) return TendermintErrors.InvalidUnbondingPeriod.wrap('unbonding period must be greater than zero');
  if (durationNs(cs.maxClockDrift) <= 0n) return TendermintErrors.InvalidMaxClockDrift.wrap('max clock drift must be greater than zero');
  const latest = latestHeight(cs);
  const revision = parseChainId(cs.chainId);
  if (latest.revisionNumber !== revision) {
    return TendermintErrors.InvalidHeaderHeight.wrap(`latest height revision number must match chain id revision number (${latest.revisionNumber} != ${revision})`);
  }
  if (latest.revisionHeight === 0n) return TendermintErrors.InvalidHeaderHeight.wrap("tendermint client's latest height revision height cannot be zero");
  if (trusting >= unbonding) {
    return TendermintErrors.InvalidTrustingPeriod.wrap(`trusting period (${formatDurationNs(trusting)}) should be < unbonding period (${formatDurationNs(unbonding)})`);
  }
  if (cs.proofSpecs.length === 0) return TendermintErrors.InvalidProofSpecs.wrap('proof specs cannot be nil for tm client');
  for (let i = 0; i < cs.upgradePath.length; i++) {
    if (cs.upgradePath[i]!.trim() === '') return ClientErrors.InvalidClient.wrap(`key in upgrade path at index ${i} cannot be empty`);
  }
  return undefined;
}

/** The problem with a consensus state (ConsensusState.ValidateBasic), or undefined. */
export function consensusStateError(cs: ConsensusState): SdkError | Error | undefined {
  if (cs.root === undefined || cs.root.hash.length === 0) return ClientErrors.InvalidConsensus.wrap('root cannot be empty');
  if (cs.nextValidatorsHash.length !== 0 && cs.nextValidatorsHash.length !== 32) {
    return new Error(`next validators hash is invalid: expected size to be 32 bytes, got ${cs.nextValidatorsHash.length} bytes`);
  }
  if (cs.timestamp === undefined || cs.timestamp.seconds <= 0n) return ClientErrors.InvalidConsensus.wrap('timestamp must be a positive Unix time');
  return undefined;
}

/** The height of a header: (revision of its chain id, its block height). */
export function headerHeight(header: Header): Height {
  const h = header.signedHeader?.header;
  if (h === undefined) return newHeight(0n, 0n);
  return newHeight(parseChainId(h.chainId), h.height < 0n ? 0n : h.height);
}

/** The consensus state a header yields (Header.ConsensusState). */
export function headerConsensusState(header: Header): ConsensusState {
  const h = header.signedHeader!.header!;
  return create(ConsensusStateSchema, {
    timestamp: h.time,
    root: create(MerkleRootSchema, { hash: h.appHash }),
    nextValidatorsHash: h.nextValidatorsHash,
  });
}

/** Header.ValidateBasic. */
export function headerError(header: Header): SdkError | undefined {
  if (header.signedHeader === undefined) return ClientErrors.InvalidHeader.wrap('tendermint signed header cannot be nil');
  if (header.signedHeader.header === undefined) return ClientErrors.InvalidHeader.wrap('tendermint header cannot be nil');
  let signed;
  try {
    signed = signedHeaderFromProto(header.signedHeader);
  } catch (err) {
    return ClientErrors.InvalidHeader.wrap(`header is not a tendermint header: ${messageOf(err)}`);
  }
  const height = headerHeight(header);
  const trusted = header.trustedHeight ?? newHeight(0n, 0n);
  if (compareHeights(height, trusted) <= 0) {
    return TendermintErrors.InvalidHeaderHeight.wrap(`TrustedHeight ${formatHeight(trusted)} must be less than header height ${formatHeight(height)}`);
  }
  try {
    validateSignedHeader(signed, signed.header.chainId, hashHeader);
  } catch (err) {
    return ClientErrors.InvalidHeader.wrap(`header failed basic validation: ${messageOf(err)}`);
  }
  if (header.validatorSet === undefined) return ClientErrors.InvalidHeader.wrap('validator set is nil');
  let vals;
  try {
    vals = validatorSetFromProto(header.validatorSet);
  } catch (err) {
    return ClientErrors.InvalidHeader.wrap(`validator set is not tendermint validator set: ${messageOf(err)}`);
  }
  if (!bytesEqual(signed.header.validatorsHash, vals.hash())) return ClientErrors.InvalidHeader.wrap('validator set does not match hash');
  return undefined;
}

/** Misbehaviour.ValidateBasic. */
export function misbehaviourError(m: Misbehaviour): SdkError | undefined {
  if (m.header1 === undefined) return TendermintErrors.InvalidHeader.wrap('misbehaviour Header1 cannot be nil');
  if (m.header2 === undefined) return TendermintErrors.InvalidHeader.wrap('misbehaviour Header2 cannot be nil');
  if ((m.header1.trustedHeight?.revisionHeight ?? 0n) === 0n) return TendermintErrors.InvalidHeaderHeight.wrap('misbehaviour Header1 cannot have zero revision height');
  if ((m.header2.trustedHeight?.revisionHeight ?? 0n) === 0n) return TendermintErrors.InvalidHeaderHeight.wrap('misbehaviour Header2 cannot have zero revision height');
  if (m.header1.trustedValidators === undefined) return TendermintErrors.InvalidValidatorSet.wrap('trusted validator set in Header1 cannot be empty');
  if (m.header2.trustedValidators === undefined) return TendermintErrors.InvalidValidatorSet.wrap('trusted validator set in Header2 cannot be empty');
  if (m.header1.signedHeader?.header?.chainId !== m.header2.signedHeader?.header?.chainId) return ClientErrors.InvalidMisbehaviour.wrap('headers must have identical chainIDs');
  const e1 = headerError(m.header1);
  if (e1 !== undefined) return ClientErrors.InvalidMisbehaviour.wrap(`header 1 failed validation: ${e1.message}`);
  const e2 = headerError(m.header2);
  if (e2 !== undefined) return ClientErrors.InvalidMisbehaviour.wrap(`header 2 failed validation: ${e2.message}`);
  if (compareHeights(headerHeight(m.header1), headerHeight(m.header2)) < 0) {
    return ClientErrors.InvalidMisbehaviour.wrap(`Header1 height is less than Header2 height (${formatHeight(headerHeight(m.header1))} < ${formatHeight(headerHeight(m.header2))})`);
  }
  for (const [index, header] of [[1, m.header1], [2, m.header2]] as const) {
    try {
      const signed = signedHeaderFromProto(header.signedHeader);
      const vals = validatorSetFromProto(header.validatorSet);
      verifyCommitLight(vals, signed.header.chainId, signed.commit.blockId, signed.commit.height, signed.commit);
    } catch (err) {
      return ClientErrors.InvalidMisbehaviour.wrap(`validator set did not commit to header ${index}: ${messageOf(err)}`);
    }
  }
  return undefined;
}

// ------------------------------------------------------------------------------ client store

/** The typed consensus-state side of a tendermint client's store (store.go). */
export class TendermintStore {
  constructor(readonly view: ClientStoreView) {}

  getClientState(): ClientState | undefined {
    const bytes = this.view.get('clientState');
    if (bytes === undefined) return undefined;
    return fromBinary(ClientStateSchema, decodeAny(bytes).value);
  }

  setClientState(cs: ClientState): void {
    this.view.set('clientState', encodeAny(packClientState(cs)));
  }

  getConsensusState(height: Height): ConsensusState | undefined {
    const bytes = this.view.getConsensus(formatHeight(height));
    if (bytes === undefined) return undefined;
    return fromBinary(ConsensusStateSchema, decodeAny(bytes).value);
  }

  /** GetConsensusState with ibc-go's errors: not found (client/7). */
  mustGetConsensusState(height: Height): ConsensusState {
    const cs = this.getConsensusState(height);
    if (cs === undefined) throw ClientErrors.ConsensusStateNotFound.wrap(`consensus state does not exist for height ${formatHeight(height)}`);
    return cs;
  }

  setConsensusState(height: Height, cs: ConsensusState): void {
    this.view.setConsensus(formatHeight(height), encodeAny(packConsensusState(cs)));
  }

  /** Processed time, processed height and the iteration key of a consensus state (setConsensusMetadata). */
  setConsensusMetadata(ctx: Context, height: Height): void {
    const time = new Uint8Array(8);
    new DataView(time.buffer).setBigUint64(0, blockTimeNs(ctx));
    this.view.setConsensus(`${formatHeight(height)}${KEY_PROCESSED_TIME}`, time);
    this.view.setConsensus(`${formatHeight(height)}${KEY_PROCESSED_HEIGHT}`, new TextEncoder().encode(formatHeight(selfHeight(ctx))));
    this.view.setIteration(heightKeyBytes(height), new TextEncoder().encode(`consensusStates/${formatHeight(height)}`));
  }

  /** The metadata of a consensus state copied from another client (setConsensusMetadataWithValues). */
  setConsensusMetadataWithValues(height: Height, processedHeight: string, processedTimeNs: bigint): void {
    const time = new Uint8Array(8);
    new DataView(time.buffer).setBigUint64(0, processedTimeNs);
    this.view.setConsensus(`${formatHeight(height)}${KEY_PROCESSED_TIME}`, time);
    this.view.setConsensus(`${formatHeight(height)}${KEY_PROCESSED_HEIGHT}`, new TextEncoder().encode(processedHeight));
    this.view.setIteration(heightKeyBytes(height), new TextEncoder().encode(`consensusStates/${formatHeight(height)}`));
  }

  getProcessedTimeNs(height: Height): bigint | undefined {
    const bytes = this.view.getConsensus(`${formatHeight(height)}${KEY_PROCESSED_TIME}`);
    return bytes === undefined || bytes.length !== 8 ? undefined : new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0);
  }

  getProcessedHeight(height: Height): string | undefined {
    const bytes = this.view.getConsensus(`${formatHeight(height)}${KEY_PROCESSED_HEIGHT}`);
    return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
  }

  deleteConsensusStateAndMetadata(height: Height): void {
    this.view.deleteConsensus(formatHeight(height));
    this.view.deleteConsensus(`${formatHeight(height)}${KEY_PROCESSED_TIME}`);
    this.view.deleteConsensus(`${formatHeight(height)}${KEY_PROCESSED_HEIGHT}`);
    this.view.deleteIteration(heightKeyBytes(height));
  }

  /** Heights with a consensus state, ascending (IterateConsensusStateAscending). */
  async *heightsAscending(): AsyncIterableIterator<Height> {
    for await (const [key] of this.view.iteration()) yield heightFromKeyBytes(key);
  }

  /** The highest consensus state below `height` (GetPreviousConsensusState). */
  async previousConsensusState(height: Height): Promise<ConsensusState | undefined> {
    for await (const [key] of this.view.iteration({ before: heightKeyBytes(height), reverse: true })) return this.getConsensusState(heightFromKeyBytes(key));
    return undefined;
  }

  /** The lowest consensus state above `height` (GetNextConsensusState). */
  async nextConsensusState(height: Height): Promise<ConsensusState | undefined> {
    for await (const [key] of this.view.iteration({ after: heightKeyBytes(height) })) return this.getConsensusState(heightFromKeyBytes(key));
    return undefined;
  }
}

// ------------------------------------------------------------------------------ client logic

/** Whether a consensus state of time `timeNs` is past the trusting period at `nowNs` (IsExpired). */
export function isExpired(cs: ClientState, timeNs: bigint, nowNs: bigint): boolean {
  return timeNs + durationNs(cs.trustingPeriod) <= nowNs;
}

/** Frozen when frozen_height is set; Expired when the latest consensus state is gone or too old; else Active. */
export function clientStatus(cs: ClientState, store: TendermintStore, nowNs: bigint): Status {
  if (cs.frozenHeight !== undefined && !isZeroHeight(cs.frozenHeight)) return 'Frozen';
  const latest = store.getConsensusState(latestHeight(cs));
  if (latest === undefined || latest.timestamp === undefined) return 'Expired';
  if (isExpired(cs, timestampToNs(latest.timestamp), nowNs)) return 'Expired';
  return 'Active';
}

/** Initialize: metadata of the initial consensus state (the keeper stores the state itself). */
export function initializeClient(ctx: Context, store: TendermintStore, cs: ClientState): void {
  store.setConsensusMetadata(ctx, latestHeight(cs));
}

/** checkTrustedHeader: the supplied trusted validators are the trusted consensus state's next validators. */
function checkTrustedHeader(header: Header, consState: ConsensusState): void {
  let trustedVals;
  try {
    trustedVals = validatorSetFromProto(header.trustedValidators);
  } catch (err) {
    throw SdkErrors.InvalidType.wrap(`trusted validator set in not tendermint validator set type: ${messageOf(err)}`);
  }
  const hash = trustedVals.hash();
  if (!bytesEqual(consState.nextValidatorsHash, hash)) {
    throw TendermintErrors.InvalidValidatorSet.wrap(
      `trusted validators does not hash to latest trusted validators. Expected: ${toHexUpper(consState.nextValidatorsHash)}, got: ${toHexUpper(hash)}`,
    );
  }
}

/** The chain id headers of this revision are signed under (the client's, with the header's revision). */
function signingChainId(cs: ClientState, revision: bigint): string {
  return isRevisionFormat(cs.chainId) ? setRevisionNumber(cs.chainId, revision) : cs.chainId;
}

/** checkValidity: the header verifies from the trusted consensus state under the light-client rules. */
export function checkValidity(cs: ClientState, consState: ConsensusState, header: Header, nowNs: bigint): void {
  checkTrustedHeader(header, consState);
  const height = headerHeight(header);
  const trustedHeight = header.trustedHeight ?? newHeight(0n, 0n);
  if (height.revisionNumber !== trustedHeight.revisionNumber) {
    throw TendermintErrors.InvalidHeaderHeight.wrap(`header height revision ${height.revisionNumber} does not match trusted header revision ${trustedHeight.revisionNumber}`);
  }
  let trustedVals, signed, vals;
  try {
    trustedVals = validatorSetFromProto(header.trustedValidators);
    signed = signedHeaderFromProto(header.signedHeader);
    vals = validatorSetFromProto(header.validatorSet);
  } catch (err) {
    throw ClientErrors.InvalidHeader.wrap(messageOf(err));
  }
  if (compareHeights(height, trustedHeight) <= 0) {
    throw ClientErrors.InvalidHeader.wrap(`header height ≤ consensus state height (${formatHeight(height)} ≤ ${formatHeight(trustedHeight)})`);
  }
  const trusted = {
    chainId: signingChainId(cs, height.revisionNumber),
    height: Number(trustedHeight.revisionHeight),
    timeNs: timestampToNs(consState.timestamp ?? { seconds: 0n, nanos: 0 }),
    nextValidatorsHash: consState.nextValidatorsHash,
  };
  try {
    verifyLight(trusted, trustedVals, signed, vals, {
      trustingPeriodNs: durationNs(cs.trustingPeriod),
      nowNs,
      maxClockDriftNs: durationNs(cs.maxClockDrift),
      trustLevel: { numerator: cs.trustLevel?.numerator ?? 0n, denominator: cs.trustLevel?.denominator ?? 0n },
    });
  } catch (err) {
    if (err instanceof LightVerificationError || err instanceof LightClientInputError) throw ClientErrors.InvalidHeader.wrap(`failed to verify header: ${err.message}`);
    throw err;
  }
}

export interface UpdateResult {
  clientState: ClientState;
  consensusState: ConsensusState;
  /** True when the update proved misbehaviour and froze the client. */
  frozen: boolean;
}

/**
 * CheckHeaderAndUpdateState: verifies the header from its trusted consensus state; a header
 * conflicting with a stored consensus state, or breaking time monotonicity with its neighbours,
 * freezes the client; otherwise the oldest consensus state is pruned when expired, the latest
 * height advances and the header's consensus state (with its metadata) is the new one.
 * Writes only metadata and pruning; the caller stores the returned states.
 */
export async function checkHeaderAndUpdateState(ctx: Context, store: TendermintStore, cs: ClientState, header: Header): Promise<UpdateResult> {
  const height = headerHeight(header);
  const consState = headerConsensusState(header);
  let conflicting = false;
  const existing = store.getConsensusState(height);
  if (existing !== undefined) {
    // The same header again is a no-op.
    if (equals(ConsensusStateSchema, existing, consState)) return { clientState: cs, consensusState: existing, frozen: false };
    conflicting = true;
  }
  const trustedHeight = header.trustedHeight ?? newHeight(0n, 0n);
  const trustedConsState = store.getConsensusState(trustedHeight);
  if (trustedConsState === undefined) {
    throw ClientErrors.ConsensusStateNotFound.wrap(`could not get consensus state from clientstore at TrustedHeight: ${formatHeight(trustedHeight)}`);
  }
  const nowNs = blockTimeNs(ctx);
  checkValidity(cs, trustedConsState, header, nowNs);

  const frozen = (): UpdateResult => ({ clientState: create(ClientStateSchema, { ...cs, frozenHeight: FROZEN_HEIGHT }), consensusState: consState, frozen: true });
  if (conflicting) return frozen();
  const timeNs = timestampToNs(consState.timestamp!);
  const previous = await store.previousConsensusState(height);
  if (previous !== undefined && timestampToNs(previous.timestamp!) >= timeNs) return frozen();
  const next = await store.nextConsensusState(height);
  if (next !== undefined && timestampToNs(next.timestamp!) <= timeNs) return frozen();

  // Prune the oldest consensus state if it has expired (one per update, as ibc-go).
  for await (const oldest of store.heightsAscending()) {
    const state = store.getConsensusState(oldest);
    if (state !== undefined && isExpired(cs, timestampToNs(state.timestamp!), nowNs)) store.deleteConsensusStateAndMetadata(oldest);
    break;
  }
  const updated = compareHeights(height, latestHeight(cs)) > 0 ? create(ClientStateSchema, { ...cs, latestHeight: height }) : cs;
  store.setConsensusMetadata(ctx, height);
  return { clientState: updated, consensusState: consState, frozen: false };
}

function blockIdOf(header: Header): BlockId {
  return commitFromProto(header.signedHeader).blockId;
}

/** checkMisbehaviourHeader: a misbehaving header verifies from its trusted consensus state. */
function checkMisbehaviourHeader(cs: ClientState, consState: ConsensusState, header: Header, nowNs: bigint): void {
  let trustedVals, commit;
  try {
    trustedVals = validatorSetFromProto(header.trustedValidators);
    commit = commitFromProto(header.signedHeader);
  } catch (err) {
    throw ClientErrors.InvalidMisbehaviour.wrap(messageOf(err));
  }
  checkTrustedHeader(header, consState);
  const age = nowNs - timestampToNs(consState.timestamp!);
  const trusting = durationNs(cs.trustingPeriod);
  if (age >= trusting) {
    throw TendermintErrors.TrustingPeriodExpired.wrap(`current timestamp minus the latest consensus state timestamp is greater than or equal to the trusting period (${age} >= ${trusting})`);
  }
  const chainId = signingChainId(cs, headerHeight(header).revisionNumber);
  try {
    verifyCommitLightTrusting(trustedVals, chainId, commit, { numerator: cs.trustLevel?.numerator ?? 0n, denominator: cs.trustLevel?.denominator ?? 0n });
  } catch (err) {
    throw ClientErrors.InvalidMisbehaviour.wrap(`validator set in header has too much change from trusted validator set: ${messageOf(err)}`);
  }
}

/**
 * CheckMisbehaviourAndUpdateState: two headers at one height with different blocks, or at two
 * heights with the later one not later in time, each verifying from a trusted consensus state,
 * freeze the client. Returns the frozen client state.
 */
export function checkMisbehaviourAndUpdateState(ctx: Context, store: TendermintStore, cs: ClientState, m: Misbehaviour): ClientState {
  const h1 = m.header1!;
  const h2 = m.header2!;
  if (compareHeights(headerHeight(h1), headerHeight(h2)) === 0) {
    if (bytesEqual(blockIdOf(h1).hash, blockIdOf(h2).hash)) throw ClientErrors.InvalidMisbehaviour.wrap('headers block hashes are equal');
  } else if (timestampToNs(h1.signedHeader!.header!.time!) > timestampToNs(h2.signedHeader!.header!.time!)) {
    throw ClientErrors.InvalidMisbehaviour.wrap('headers are not at same height and are monotonically increasing');
  }
  const trusted1 = h1.trustedHeight ?? newHeight(0n, 0n);
  const trusted2 = h2.trustedHeight ?? newHeight(0n, 0n);
  const cons1 = store.getConsensusState(trusted1);
  if (cons1 === undefined) throw ClientErrors.ConsensusStateNotFound.wrap(`could not get trusted consensus state from clientStore for Header1 at TrustedHeight: ${formatHeight(trusted1)}`);
  const cons2 = store.getConsensusState(trusted2);
  if (cons2 === undefined) throw ClientErrors.ConsensusStateNotFound.wrap(`could not get trusted consensus state from clientStore for Header2 at TrustedHeight: ${formatHeight(trusted2)}`);
  const nowNs = blockTimeNs(ctx);
  for (const [index, header, cons] of [[1, h1, cons1], [2, h2, cons2]] as const) {
    try {
      checkMisbehaviourHeader(cs, cons, header, nowNs);
    } catch (err) {
      if (isSdkError(err)) throw err.wrap(`verifying Header${index} in Misbehaviour failed`);
      throw err;
    }
  }
  return create(ClientStateSchema, { ...cs, frozenHeight: FROZEN_HEIGHT });
}

/** ZeroCustomFields: the client state with only the fields every chain shares (what is committed for upgrades). */
export function zeroCustomFields(cs: ClientState): ClientState {
  return create(ClientStateSchema, {
    chainId: cs.chainId,
    unbondingPeriod: cs.unbondingPeriod,
    latestHeight: cs.latestHeight,
    proofSpecs: cs.proofSpecs,
    upgradePath: cs.upgradePath,
  });
}

/** IsMatchingClientState: equal once latest height, frozen height, trusting period and chain id are set aside. */
export function isMatchingClientState(subject: ClientState, substitute: ClientState): boolean {
  const strip = (cs: ClientState): ClientState => create(ClientStateSchema, { ...cs, latestHeight: newHeight(0n, 0n), frozenHeight: newHeight(0n, 0n), trustingPeriod: undefined, chainId: '' });
  return equals(ClientStateSchema, strip(subject), strip(substitute));
}

/**
 * CheckSubstituteAndUpdateState (a passed ClientUpdateProposal): the subject client takes the
 * substitute's latest consensus state with its metadata, latest height, chain id and trusting
 * period, and is unfrozen. The caller has checked the statuses.
 */
export function checkSubstituteAndUpdateState(subject: TendermintStore, cs: ClientState, substitute: TendermintStore, substituteState: ClientState, nowNs: bigint): ClientState {
  if (!isMatchingClientState(cs, substituteState)) throw ClientErrors.InvalidSubstitute.wrap('subject client state does not match substitute client state');
  const frozen = clientStatus(cs, subject, nowNs) === 'Frozen';
  const latest = latestHeight(substituteState);
  const consensusState = substitute.getConsensusState(latest);
  if (consensusState === undefined) throw ClientErrors.ConsensusStateNotFound.wrap('unable to retrieve latest consensus state for substitute client');
  subject.setConsensusState(latest, consensusState);
  const processedHeight = substitute.getProcessedHeight(latest);
  if (processedHeight === undefined) throw ClientErrors.UpdateClientFailed.wrap('unable to retrieve processed height for substitute client latest height');
  const processedTime = substitute.getProcessedTimeNs(latest);
  if (processedTime === undefined) throw ClientErrors.UpdateClientFailed.wrap('unable to retrieve processed time for substitute client latest height');
  subject.setConsensusMetadataWithValues(latest, processedHeight, processedTime);
  return create(ClientStateSchema, {
    ...cs,
    ...(frozen ? { frozenHeight: newHeight(0n, 0n) } : {}),
    latestHeight: substituteState.latestHeight,
    chainId: substituteState.chainId,
    trustingPeriod: substituteState.trustingPeriod,
  });
}
