/**
 * The 02-client keeper (ibc-go v6 modules/core/02-client/keeper): client identifiers, client and
 * consensus states in the IBC store, params, and the four client operations — create, update
 * (a header, or misbehaviour found by it, which freezes the client), upgrade, misbehaviour —
 * each checking the client's status first. Light clients are dispatched by the type URL of the
 * state; 07-tendermint is the one this chain runs.
 */
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { AnySchema, TimestampSchema, type Any } from '@bufbuild/protobuf/wkt';
import { PlanSchema } from '../../../../../gen/cosmos/upgrade/v1beta1/upgrade_pb.js';
import type { ClientUpdateProposal, Params, UpgradeProposal } from '../../../../../gen/ibc/core/client/v1/client_pb.js';
import { MerkleRootSchema } from '../../../../../gen/ibc/core/commitment/v1/commitment_pb.js';
import { typeUrlOf } from '../../../../codec/registry.js';
import type { Context } from '../../../shared/context.js';
import { SdkErrors, wrapError } from '../../../shared/errors.js';
import {
  ClientStateSchema,
  ConsensusStateSchema,
  HeaderSchema,
  MisbehaviourSchema,
  TENDERMINT_CLIENT_TYPE,
  TendermintStore,
  blockTimeNs,
  checkHeaderAndUpdateState,
  checkMisbehaviourAndUpdateState,
  checkSubstituteAndUpdateState,
  clientStateError,
  clientStatus,
  consensusStateError,
  decodeAny,
  encodeAny,
  headerHeight,
  initializeClient,
  latestHeight,
  packClientState,
  packConsensusState,
  type ClientState,
  type ConsensusState,
  zeroCustomFields,
  type Status,
} from '../../lightclients/tendermint/client.js';
import { formatDurationNs } from '../../lightclients/tendermint/verify.js';
import { ProofSpecSchema } from '../../../../../gen/cosmos/ics23/v1/proofs_pb.js';
import { sdkProofSpecs } from '../commitment/specs.js';
import { verifyUpgradeAndUpdateState } from '../../lightclients/tendermint/upgrade.js';
import { clientIdentifierError, formatClientIdentifier, parseClientIdentifier } from '../host/identifiers.js';
import { ClientStoreView } from './clientStore.js';
import { ClientErrors } from './errors.js';
import { createClientEvents, misbehaviourEvent, misbehaviourOnUpdateEvent, updateClientEvents, updateClientProposalEvent, upgradeClientEvents, upgradeClientProposalEvent } from './events.js';
import type { IbcStakingKeeper, IbcUpgradeKeeper } from './expectedKeepers.js';
import { compareHeights, formatHeight, newHeight, parseChainId, type Height } from './height.js';
import { ClientParamsItem, ClientStore, NextClientSequence, SECTION_OTHER, keyText } from './keys.js';
import { defaultClientParams } from './params.js';

const TM_CLIENT_STATE_URL = typeUrlOf(ClientStateSchema);
const TM_CONSENSUS_STATE_URL = typeUrlOf(ConsensusStateSchema);
const TM_HEADER_URL = typeUrlOf(HeaderSchema);
const TM_MISBEHAVIOUR_URL = typeUrlOf(MisbehaviourSchema);

/** The client state in an Any, or client/3 when it is not a client state this chain runs. */
export function unpackClientState(any: Any | undefined): ClientState {
  if (any === undefined) throw SdkErrors.UnpackAny.wrap('protobuf Any message cannot be nil');
  if (any.typeUrl !== TM_CLIENT_STATE_URL) throw SdkErrors.UnpackAny.wrap(`cannot unpack Any into ClientState: no light client of type ${any.typeUrl} on this chain`);
  try {
    return fromBinary(ClientStateSchema, any.value);
  } catch (err) {
    throw SdkErrors.UnpackAny.wrap(`cannot unpack Any into ClientState: ${(err as Error).message}`);
  }
}

export function unpackConsensusState(any: Any | undefined): ConsensusState {
  if (any === undefined) throw SdkErrors.UnpackAny.wrap('protobuf Any message cannot be nil');
  if (any.typeUrl !== TM_CONSENSUS_STATE_URL) throw SdkErrors.UnpackAny.wrap(`cannot unpack Any into ConsensusState: no light client of type ${any.typeUrl} on this chain`);
  try {
    return fromBinary(ConsensusStateSchema, any.value);
  } catch (err) {
    throw SdkErrors.UnpackAny.wrap(`cannot unpack Any into ConsensusState: ${(err as Error).message}`);
  }
}

/** A client message (header or misbehaviour) in an Any. */
export function unpackClientMessage(any: Any | undefined): { kind: 'header'; header: ReturnType<typeof fromBinary<typeof HeaderSchema>> } | { kind: 'misbehaviour'; misbehaviour: ReturnType<typeof fromBinary<typeof MisbehaviourSchema>> } {
  if (any === undefined) throw SdkErrors.UnpackAny.wrap('protobuf Any message cannot be nil');
  try {
    if (any.typeUrl === TM_HEADER_URL) return { kind: 'header', header: fromBinary(HeaderSchema, any.value) };
    if (any.typeUrl === TM_MISBEHAVIOUR_URL) return { kind: 'misbehaviour', misbehaviour: fromBinary(MisbehaviourSchema, any.value) };
  } catch (err) {
    throw SdkErrors.UnpackAny.wrap(`cannot unpack Any into ClientMessage: ${(err as Error).message}`);
  }
  throw SdkErrors.UnpackAny.wrap(`cannot unpack Any into ClientMessage: no light client message of type ${any.typeUrl} on this chain`);
}

function durationToNs(d: { seconds: bigint; nanos: number } | undefined): bigint {
  return d === undefined ? 0n : d.seconds * 1_000_000_000n + BigInt(d.nanos);
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

export class ClientKeeper {
  constructor(
    private readonly staking: IbcStakingKeeper,
    private readonly upgrade: IbcUpgradeKeeper,
  ) {}

  // ------------------------------------------------------------------ params, sequence, ids

  getParams(ctx: Context): Params {
    return ClientParamsItem.get(ctx) ?? defaultClientParams();
  }

  setParams(ctx: Context, params: Params): void {
    ClientParamsItem.set(ctx, params);
  }

  getNextClientSequence(ctx: Context): bigint {
    return NextClientSequence.get(ctx) ?? 0n;
  }

  setNextClientSequence(ctx: Context, sequence: bigint): void {
    NextClientSequence.set(ctx, sequence);
  }

  /** `<type>-<sequence>`, then the sequence moves on (GenerateClientIdentifier). */
  generateClientIdentifier(ctx: Context, clientType: string): string {
    const sequence = this.getNextClientSequence(ctx);
    this.setNextClientSequence(ctx, sequence + 1n);
    return formatClientIdentifier(clientType, sequence);
  }

  store(ctx: Context, clientId: string): TendermintStore {
    return new TendermintStore(new ClientStoreView(ctx, clientId));
  }

  // ------------------------------------------------------------------ state access

  getClientState(ctx: Context, clientId: string): ClientState | undefined {
    return this.store(ctx, clientId).getClientState();
  }

  /** The stored client state's Any (what the queries return). */
  getClientStateAny(ctx: Context, clientId: string): Any | undefined {
    const bytes = new ClientStoreView(ctx, clientId).get('clientState');
    return bytes === undefined ? undefined : decodeAny(bytes);
  }

  setClientState(ctx: Context, clientId: string, cs: ClientState): void {
    this.store(ctx, clientId).setClientState(cs);
  }

  getClientConsensusState(ctx: Context, clientId: string, height: Height): ConsensusState | undefined {
    return this.store(ctx, clientId).getConsensusState(height);
  }

  getClientConsensusStateAny(ctx: Context, clientId: string, height: Height): Any | undefined {
    const bytes = new ClientStoreView(ctx, clientId).getConsensus(formatHeight(height));
    return bytes === undefined ? undefined : decodeAny(bytes);
  }

  setClientConsensusState(ctx: Context, clientId: string, height: Height, cs: ConsensusState): void {
    this.store(ctx, clientId).setConsensusState(height, cs);
  }

  /** Every client id with a client state, in store order. */
  async clientIds(ctx: Context): Promise<string[]> {
    const ids: string[] = [];
    for await (const [clientId, section, rest] of ClientStore.keys(ctx)) if (section === SECTION_OTHER && keyText(rest) === 'clientState') ids.push(clientId);
    return ids;
  }

  /** The client's status at the context's block time; Unknown for no client. */
  getStatus(ctx: Context, clientId: string): Status {
    const cs = this.getClientState(ctx, clientId);
    if (cs === undefined) return 'Unknown';
    return clientStatus(cs, this.store(ctx, clientId), blockTimeNs(ctx));
  }

  private mustGetActive(ctx: Context, clientId: string, action: string, notFound: string): ClientState {
    const cs = this.getClientState(ctx, clientId);
    if (cs === undefined) throw ClientErrors.ClientNotFound.wrap(notFound);
    const status = clientStatus(cs, this.store(ctx, clientId), blockTimeNs(ctx));
    if (status !== 'Active') throw ClientErrors.ClientNotActive.wrap(`cannot ${action} client (${clientId}) with status ${status}`);
    return cs;
  }

  // ------------------------------------------------------------------ operations

  /** CreateClient: allowed type, a fresh identifier, the client state, its initial consensus state and metadata. */
  createClient(ctx: Context, clientState: ClientState, consensusState: ConsensusState): string {
    const clientType = TENDERMINT_CLIENT_TYPE;
    if (!this.getParams(ctx).allowedClients.includes(clientType)) {
      throw ClientErrors.InvalidClientType.wrap(`client state type ${clientType} is not registered in the allowlist`);
    }
    const clientId = this.generateClientIdentifier(ctx, clientType);
    const store = this.store(ctx, clientId);
    store.setClientState(clientState);
    initializeClient(ctx, store, clientState);
    store.setConsensusState(latestHeight(clientState), consensusState);
    ctx.events.emitAll(createClientEvents(clientId, clientType, formatHeight(latestHeight(clientState))));
    return clientId;
  }

  /**
   * UpdateClient with a header: verified under the light-client rules; a valid header stores its
   * consensus state, a header proving misbehaviour freezes the client. Either way the client
   * state is written and the event names the header (hex of its Any).
   */
  async updateClient(ctx: Context, clientId: string, headerAny: Any): Promise<void> {
    const cs = this.mustGetActive(ctx, clientId, 'update', `cannot update client with ID ${clientId}`);
    const message = unpackClientMessage(headerAny);
    if (message.kind === 'misbehaviour') {
      await this.checkMisbehaviourAndUpdateState(ctx, clientId, headerAny);
      return;
    }
    const store = this.store(ctx, clientId);
    let result;
    try {
      result = await checkHeaderAndUpdateState(ctx, store, cs, message.header);
    } catch (err) {
      throw wrapError(err, `cannot update client with ID ${clientId}`);
    }
    const headerHex = toHex(toBinary(AnySchema, headerAny));
    const consensusHeight = formatHeight(headerHeight(message.header));
    store.setClientState(result.clientState);
    if (!result.frozen) {
      store.setConsensusState(headerHeight(message.header), result.consensusState);
      ctx.events.emitAll(updateClientEvents(clientId, TENDERMINT_CLIENT_TYPE, consensusHeight, headerHex));
    } else {
      ctx.events.emit(misbehaviourOnUpdateEvent(clientId, TENDERMINT_CLIENT_TYPE, consensusHeight, headerHex));
    }
  }

  /** CheckMisbehaviourAndUpdateState: proven misbehaviour freezes the client. */
  async checkMisbehaviourAndUpdateState(ctx: Context, clientId: string, misbehaviourAny: Any): Promise<void> {
    const cs = this.mustGetActive(ctx, clientId, 'process misbehaviour for', `cannot check misbehaviour for client with ID ${clientId}`);
    const message = unpackClientMessage(misbehaviourAny);
    if (message.kind !== 'misbehaviour') throw ClientErrors.InvalidMisbehaviour.wrap(`expected type ${TM_MISBEHAVIOUR_URL}, got ${misbehaviourAny.typeUrl}`);
    const frozen = checkMisbehaviourAndUpdateState(ctx, this.store(ctx, clientId), cs, message.misbehaviour);
    this.setClientState(ctx, clientId, frozen);
    ctx.events.emit(misbehaviourEvent(clientId, TENDERMINT_CLIENT_TYPE));
  }

  /**
   * UpgradeClient: the upgraded client and consensus state must be proven committed by the old
   * chain under its upgrade path at the client's latest height; the client then continues from them.
   */
  upgradeClient(ctx: Context, clientId: string, upgradedClient: ClientState, upgradedConsState: ConsensusState, proofClient: Uint8Array, proofConsState: Uint8Array): void {
    const cs = this.mustGetActive(ctx, clientId, 'upgrade', `cannot update client with ID ${clientId}`);
    let result;
    try {
      result = verifyUpgradeAndUpdateState(this.store(ctx, clientId), cs, upgradedClient, upgradedConsState, proofClient, proofConsState, blockTimeNs(ctx));
    } catch (err) {
      throw wrapError(err, `cannot upgrade client with ID ${clientId}`);
    }
    const store = this.store(ctx, clientId);
    store.setClientState(result.clientState);
    store.setConsensusState(latestHeight(result.clientState), result.consensusState);
    initializeClient(ctx, store, result.clientState);
    ctx.events.emitAll(upgradeClientEvents(clientId, TENDERMINT_CLIENT_TYPE, formatHeight(latestHeight(result.clientState))));
  }

  // ------------------------------------------------------------------ this chain

  /**
   * BeginBlock (02-client's BeginBlocker): at the last height before a scheduled upgrade that
   * carries an upgraded client, commit the consensus state counterparties continue from — this
   * block's time and next validators (the root is unknown until the new chain runs).
   */
  beginBlock(ctx: Context): void {
    const plan = this.upgrade.getUpgradePlan(ctx);
    if (plan === undefined || BigInt(ctx.header.height) !== plan.height - 1n) return;
    if (this.upgrade.getUpgradedClient(ctx, plan.height) === undefined) return;
    const ms = ctx.header.time.getTime();
    const seconds = Math.floor(ms / 1000);
    const consensusState = create(ConsensusStateSchema, {
      timestamp: create(TimestampSchema, { seconds: BigInt(seconds), nanos: (ms - seconds * 1000) * 1_000_000 }),
      nextValidatorsHash: ctx.header.nextValidatorsHash,
    });
    this.upgrade.setUpgradedConsensusState(ctx, plan.height, encodeAny(packConsensusState(consensusState)));
  }

  /**
   * GetSelfConsensusState: this chain's consensus state at a past height of its current revision,
   * from the header x/staking keeps (historical_entries).
   */
  getSelfConsensusState(ctx: Context, height: Height): ConsensusState {
    const revision = parseChainId(ctx.header.chainId);
    if (revision !== height.revisionNumber) {
      throw ClientErrors.InvalidHeight.wrap(`chainID revision number does not match height revision number: expected ${revision}, got ${height.revisionNumber}`);
    }
    const info = this.staking.getHistoricalInfo(ctx, height.revisionHeight);
    if (info?.header === undefined) throw SdkErrors.NotFound.wrap(`no historical info found at height ${height.revisionHeight}`);
    return create(ConsensusStateSchema, {
      timestamp: info.header.time ?? create(TimestampSchema),
      root: create(MerkleRootSchema, { hash: info.header.appHash }),
      nextValidatorsHash: info.header.nextValidatorsHash,
    });
  }

  /**
   * ValidateSelfClient: a counterparty's client of this chain (in a connection handshake) must be
   * an unfrozen 07-tendermint client of this chain id and revision, behind this height, with the
   * SDK proof specs, a trust level in [1/3, 1], this chain's unbonding period (above the trusting
   * period) and, when it has one, the upgrade module's upgrade path.
   */
  validateSelfClient(ctx: Context, clientAny: Any | undefined): void {
    if (clientAny?.typeUrl !== TM_CLIENT_STATE_URL) {
      throw ClientErrors.InvalidClient.wrap(`client must be a Tendermint client, expected: ${TM_CLIENT_STATE_URL}, got: ${clientAny?.typeUrl ?? 'nil'}`);
    }
    const cs = unpackClientState(clientAny);
    if (cs.frozenHeight !== undefined && (cs.frozenHeight.revisionNumber !== 0n || cs.frozenHeight.revisionHeight !== 0n)) throw ClientErrors.ClientFrozen.error();
    const chainId = ctx.header.chainId;
    if (cs.chainId !== chainId) throw ClientErrors.InvalidClient.wrap(`invalid chain-id. expected: ${chainId}, got: ${cs.chainId}`);
    const revision = parseChainId(chainId);
    const latest = latestHeight(cs);
    if (latest.revisionNumber !== revision) {
      throw ClientErrors.InvalidClient.wrap(`client is not in the same revision as the chain. expected revision: ${revision}, got: ${latest.revisionNumber}`);
    }
    const self = newHeight(revision, BigInt(ctx.header.height));
    if (compareHeights(latest, self) >= 0) throw ClientErrors.InvalidClient.wrap(`client has LatestHeight ${formatHeight(latest)} greater than or equal to chain height ${formatHeight(self)}`);
    const expectedSpecs = sdkProofSpecs();
    const sameSpecs = cs.proofSpecs.length === expectedSpecs.length && cs.proofSpecs.every((spec, i) => bytesEqual(toBinary(ProofSpecSchema, spec), toBinary(ProofSpecSchema, expectedSpecs[i]!)));
    if (!sameSpecs) throw ClientErrors.InvalidClient.wrap('client has invalid proof specs. expected: the SDK proof specs (iavl, tendermint)');
    const trust = cs.trustLevel;
    if (trust === undefined || trust.denominator === 0n || trust.numerator * 3n < trust.denominator || trust.numerator > trust.denominator) {
      throw ClientErrors.InvalidClient.wrap(`trust-level invalid: trustLevel must be within [1/3, 1], given ${trust?.numerator ?? 0n}/${trust?.denominator ?? 0n}`);
    }
    const expectedUnbonding = durationToNs(this.staking.getParams(ctx).unbondingTime);
    const unbonding = durationToNs(cs.unbondingPeriod);
    if (expectedUnbonding !== unbonding) {
      throw ClientErrors.InvalidClient.wrap(`invalid unbonding period. expected: ${formatDurationNs(expectedUnbonding)}, got: ${formatDurationNs(unbonding)}`);
    }
    const trusting = durationToNs(cs.trustingPeriod);
    if (unbonding < trusting) {
      throw ClientErrors.InvalidClient.wrap(`unbonding period must be greater than trusting period. unbonding period (${unbonding}) < trusting period (${trusting})`);
    }
    if (cs.upgradePath.length !== 0 && !(cs.upgradePath.length === 2 && cs.upgradePath[0] === 'upgrade' && cs.upgradePath[1] === 'upgradedIBCState')) {
      throw ClientErrors.InvalidClient.wrap(`upgrade path must be the upgrade path defined by upgrade module. expected [upgrade upgradedIBCState], got [${cs.upgradePath.join(' ')}]`);
    }
  }

  /**
   * The v1beta1 UpgradeProposal (HandleUpgradeProposal): schedule the plan and commit, at the plan
   * height, the client state counterparties will upgrade their clients of this chain to — its
   * chain-chosen fields only (ZeroCustomFields).
   */
  async handleUpgradeProposal(ctx: Context, proposal: UpgradeProposal): Promise<void> {
    let clientState;
    try {
      clientState = unpackClientState(proposal.upgradedClientState);
    } catch (err) {
      throw wrapError(err, 'could not unpack UpgradedClientState');
    }
    const plan = proposal.plan ?? create(PlanSchema);
    await this.upgrade.scheduleUpgrade(ctx, plan);
    this.upgrade.setUpgradedClient(ctx, plan.height, encodeAny(packClientState(zeroCustomFields(clientState))));
    ctx.events.emit(upgradeClientProposalEvent(proposal.title, plan.height));
  }

  /**
   * A passed ClientUpdateProposal: an expired or frozen subject client continues from an Active
   * substitute client of the same chain that is further ahead (ibc-go v6 ClientUpdateProposal).
   */
  async handleClientUpdateProposal(ctx: Context, proposal: ClientUpdateProposal): Promise<void> {
    const subject = this.getClientState(ctx, proposal.subjectClientId);
    if (subject === undefined) throw ClientErrors.ClientNotFound.wrap(`subject client with ID ${proposal.subjectClientId}`);
    const nowNs = blockTimeNs(ctx);
    const subjectStore = this.store(ctx, proposal.subjectClientId);
    if (clientStatus(subject, subjectStore, nowNs) === 'Active') throw ClientErrors.InvalidUpdateClientProposal.wrap('cannot update Active subject client');
    const substitute = this.getClientState(ctx, proposal.substituteClientId);
    if (substitute === undefined) throw ClientErrors.ClientNotFound.wrap(`substitute client with ID ${proposal.substituteClientId}`);
    if (compareHeights(latestHeight(subject), latestHeight(substitute)) >= 0) {
      throw ClientErrors.InvalidHeight.wrap(
        `subject client state latest height is greater or equal to substitute client state latest height (${formatHeight(latestHeight(subject))} >= ${formatHeight(latestHeight(substitute))})`,
      );
    }
    const substituteStore = this.store(ctx, proposal.substituteClientId);
    const substituteStatus = clientStatus(substitute, substituteStore, nowNs);
    if (substituteStatus !== 'Active') throw ClientErrors.ClientNotActive.wrap(`substitute client is not Active, status is ${substituteStatus}`);
    const updated = checkSubstituteAndUpdateState(subjectStore, subject, substituteStore, substitute, nowNs);
    subjectStore.setClientState(updated);
    ctx.events.emit(updateClientProposalEvent(proposal.subjectClientId, TENDERMINT_CLIENT_TYPE, formatHeight(latestHeight(updated))));
  }

  /** The client state committed for the scheduled upgrade (Query/UpgradedClientState). */
  getUpgradedClientAny(ctx: Context): Any | 'no-plan' | undefined {
    const plan = this.upgrade.getUpgradePlan(ctx);
    if (plan === undefined) return 'no-plan';
    const bytes = this.upgrade.getUpgradedClient(ctx, plan.height);
    return bytes === undefined ? undefined : decodeAny(bytes);
  }

  getUpgradedConsensusStateAny(ctx: Context): Any | undefined {
    const bytes = this.upgrade.getUpgradedConsensusState(ctx, BigInt(ctx.header.height));
    return bytes === undefined ? undefined : decodeAny(bytes);
  }
}


export { clientIdentifierError, clientStateError, consensusStateError, newHeight, packClientState, packConsensusState, parseClientIdentifier, encodeAny };
