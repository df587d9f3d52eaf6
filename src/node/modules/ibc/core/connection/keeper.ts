/**
 * The 03-connection keeper (ibc-go v6 modules/core/03-connection/keeper): connection ends at
 * `connections/{id}`, each client's connections at `clients/{id}/connections`, the identifier
 * sequence, params, and the four handshake steps. Each step that relies on the counterparty
 * checks proofs of the counterparty's `ibc` store — its connection end, its client of this chain
 * and that client's consensus state — through this chain's client of the counterparty, and checks
 * the counterparty's client of this chain against this chain itself (ValidateSelfClient,
 * GetSelfConsensusState). Failures throw; the message's branch is then dropped.
 */
import { create, toBinary } from '@bufbuild/protobuf';
import { AnySchema, type Any } from '@bufbuild/protobuf/wkt';
import {
  ClientPathsSchema,
  ConnectionEndSchema,
  CounterpartySchema,
  State,
  type ConnectionEnd,
  type Counterparty,
  type Params,
  type Version,
} from '../../../../../gen/ibc/core/connection/v1/connection_pb.js';
import { MerklePrefixSchema } from '../../../../../gen/ibc/core/commitment/v1/commitment_pb.js';
import type { Context } from '../../../shared/context.js';
import { SdkErrors, wrapError } from '../../../shared/errors.js';
import { blockTimeNs, clientStatus, packConsensusState, type ConsensusState } from '../../lightclients/tendermint/client.js';
import { verifyMembership, verifyNonMembership } from '../../lightclients/tendermint/membership.js';
import { ChannelSchema, type Channel } from '../../../../../gen/ibc/core/channel/v1/channel_pb.js';
import { channelPath, packetPath } from '../channel/keys.js';
import { sha256 } from '../../../../store/hash.js';
import { ClientStoreView } from '../client/clientStore.js';
import { ClientErrors } from '../client/errors.js';
import { compareHeights, formatHeight, selfHeight, type Height } from '../client/height.js';
import type { ClientKeeper } from '../client/keeper.js';
import { CommitmentErrors } from '../commitment/errors.js';
import { connectionPath, formatConnectionIdentifier, fullClientStatePath, fullConsensusStatePath } from '../host/identifiers.js';
import { ConnectionErrors } from './errors.js';
import { EVENT_TYPE_CONNECTION_OPEN_ACK, EVENT_TYPE_CONNECTION_OPEN_CONFIRM, EVENT_TYPE_CONNECTION_OPEN_INIT, EVENT_TYPE_CONNECTION_OPEN_TRY, connectionEvents } from './events.js';
import { ConnectionParamsItem, Connections, KEY_CLIENT_CONNECTIONS, NextConnectionSequence } from './keys.js';
import { compatibleVersions, formatVersion, isSupportedVersion, pickVersion } from './version.js';
import { ParamsSchema } from '../../../../../gen/ibc/core/connection/v1/connection_pb.js';
import { fromBinary } from '@bufbuild/protobuf';

/** The store prefix this chain's IBC state is proven under (ibc-go's GetCommitmentPrefix: the store key). */
export const COMMITMENT_PREFIX = 'ibc';

/** ibc-go v6's default params: a block is expected within 30 s. */
export function defaultConnectionParams(): Params {
  return create(ParamsSchema, { maxExpectedTimePerBlock: 30_000_000_000n });
}

export function stateName(state: State): string {
  return State[state] === undefined ? String(state) : `STATE_${State[state]}`;
}

function commitmentPrefix() {
  return create(MerklePrefixSchema, { keyPrefix: new TextEncoder().encode(COMMITMENT_PREFIX) });
}

/** ApplyPrefix: the counterparty's store prefix, then the path within it. */
function prefixedPath(counterparty: Counterparty | undefined, path: string): string[] {
  const prefix = counterparty?.prefix?.keyPrefix ?? new Uint8Array(0);
  if (prefix.length === 0) throw CommitmentErrors.InvalidPrefix.wrap('prefix can\'t be empty');
  return [new TextDecoder().decode(prefix), path];
}

export interface ConnOpenTryInput {
  counterparty: Counterparty;
  delayPeriod: bigint;
  clientId: string;
  clientState: Any;
  counterpartyVersions: Version[];
  proofInit: Uint8Array;
  proofClient: Uint8Array;
  proofConsensus: Uint8Array;
  proofHeight: Height;
  consensusHeight: Height;
}

export interface ConnOpenAckInput {
  connectionId: string;
  clientState: Any;
  version: Version;
  counterpartyConnectionId: string;
  proofTry: Uint8Array;
  proofClient: Uint8Array;
  proofConsensus: Uint8Array;
  proofHeight: Height;
  consensusHeight: Height;
}

export class ConnectionKeeper {
  constructor(readonly clientKeeper: ClientKeeper) {}

  // ------------------------------------------------------------------ params, sequence, state

  getParams(ctx: Context): Params {
    return ConnectionParamsItem.get(ctx) ?? defaultConnectionParams();
  }

  setParams(ctx: Context, params: Params): void {
    ConnectionParamsItem.set(ctx, params);
  }

  getNextConnectionSequence(ctx: Context): bigint {
    return NextConnectionSequence.get(ctx) ?? 0n;
  }

  setNextConnectionSequence(ctx: Context, sequence: bigint): void {
    NextConnectionSequence.set(ctx, sequence);
  }

  generateConnectionIdentifier(ctx: Context): string {
    const sequence = this.getNextConnectionSequence(ctx);
    this.setNextConnectionSequence(ctx, sequence + 1n);
    return formatConnectionIdentifier(sequence);
  }

  getConnection(ctx: Context, connectionId: string): ConnectionEnd | undefined {
    return Connections.get(ctx, connectionId);
  }

  setConnection(ctx: Context, connectionId: string, connection: ConnectionEnd): void {
    Connections.set(ctx, connectionId, connection);
  }

  getClientConnectionPaths(ctx: Context, clientId: string): string[] | undefined {
    const bytes = new ClientStoreView(ctx, clientId).get(KEY_CLIENT_CONNECTIONS);
    return bytes === undefined ? undefined : fromBinary(ClientPathsSchema, bytes).paths;
  }

  setClientConnectionPaths(ctx: Context, clientId: string, paths: string[]): void {
    new ClientStoreView(ctx, clientId).set(KEY_CLIENT_CONNECTIONS, toBinary(ClientPathsSchema, create(ClientPathsSchema, { paths })));
  }

  /** addConnectionToClient: the client must exist. */
  private addConnectionToClient(ctx: Context, clientId: string, connectionId: string): void {
    if (this.clientKeeper.getClientState(ctx, clientId) === undefined) throw ClientErrors.ClientNotFound.wrap(clientId);
    const paths = this.getClientConnectionPaths(ctx, clientId) ?? [];
    paths.push(connectionId);
    this.setClientConnectionPaths(ctx, clientId, paths);
  }

  // ------------------------------------------------------------------ verification

  /** The client of a connection, Active (GetClientStatus), with its store. */
  private activeClient(ctx: Context, connection: ConnectionEnd) {
    const clientId = connection.clientId;
    const cs = this.clientKeeper.getClientState(ctx, clientId);
    if (cs === undefined) throw ClientErrors.ClientNotFound.wrap(clientId);
    const store = this.clientKeeper.store(ctx, clientId);
    const status = clientStatus(cs, store, blockTimeNs(ctx));
    if (status !== 'Active') throw ClientErrors.ClientNotActive.wrap(`client (${clientId}) status is ${status}`);
    return { cs, store };
  }

  /** A membership proof of the counterparty's store, through the connection's client. */
  private verify(ctx: Context, connection: ConnectionEnd, proofHeight: Height, proof: Uint8Array, path: string, value: Uint8Array, delayTimeNs = 0n, delayBlocks = 0n): void {
    const { cs, store } = this.activeClient(ctx, connection);
    verifyMembership(ctx, store, cs, proofHeight, delayTimeNs, delayBlocks, proof, prefixedPath(connection.counterparty, path), value);
  }

  /** getBlockDelay: the connection's delay period in blocks (ceil of delay / max expected time per block). */
  blockDelay(ctx: Context, connection: ConnectionEnd): bigint {
    const expected = this.getParams(ctx).maxExpectedTimePerBlock;
    if (expected === 0n) return 0n;
    return (connection.delayPeriod + expected - 1n) / expected;
  }

  /** GetTimestampAtHeight: the counterparty's block time (ns) at `height`, from the client's consensus state. */
  getTimestampAtHeight(ctx: Context, connection: ConnectionEnd, height: Height): bigint {
    if (this.clientKeeper.getClientState(ctx, connection.clientId) === undefined) throw ClientErrors.ClientNotFound.wrap(`clientID (${connection.clientId})`);
    const consensus = this.clientKeeper.store(ctx, connection.clientId).getConsensusState(height);
    if (consensus === undefined) throw ClientErrors.ConsensusStateNotFound.wrap(`height (${formatHeight(height)})`);
    return consensus.timestamp === undefined ? 0n : consensus.timestamp.seconds * 1_000_000_000n + BigInt(consensus.timestamp.nanos);
  }

  /** VerifyChannelState: the counterparty stored `channel` at `channelEnds/ports/{port}/channels/{channel}`. */
  verifyChannelState(ctx: Context, connection: ConnectionEnd, proofHeight: Height, proof: Uint8Array, portId: string, channelId: string, channel: Channel): void {
    try {
      this.verify(ctx, connection, proofHeight, proof, `channelEnds/${channelPath(portId, channelId)}`, toBinary(ChannelSchema, channel));
    } catch (err) {
      throw wrapError(err, `failed channel state verification for client (${connection.clientId})`);
    }
  }

  /** VerifyPacketCommitment: the counterparty committed to the packet (after the connection's delay). */
  verifyPacketCommitment(ctx: Context, connection: ConnectionEnd, proofHeight: Height, proof: Uint8Array, portId: string, channelId: string, sequence: bigint, commitment: Uint8Array): void {
    try {
      this.verify(ctx, connection, proofHeight, proof, `commitments/${packetPath(portId, channelId, sequence)}`, commitment, connection.delayPeriod, this.blockDelay(ctx, connection));
    } catch (err) {
      throw wrapError(err, `failed packet commitment verification for client (${connection.clientId})`);
    }
  }

  /** VerifyPacketAcknowledgement: the counterparty wrote this acknowledgement (its hash) for the packet. */
  verifyPacketAcknowledgement(ctx: Context, connection: ConnectionEnd, proofHeight: Height, proof: Uint8Array, portId: string, channelId: string, sequence: bigint, acknowledgement: Uint8Array): void {
    try {
      this.verify(ctx, connection, proofHeight, proof, `acks/${packetPath(portId, channelId, sequence)}`, sha256(acknowledgement), connection.delayPeriod, this.blockDelay(ctx, connection));
    } catch (err) {
      throw wrapError(err, `failed packet acknowledgement verification for client (${connection.clientId})`);
    }
  }

  /** VerifyPacketReceiptAbsence: the counterparty has no receipt for the packet (unordered channels). */
  verifyPacketReceiptAbsence(ctx: Context, connection: ConnectionEnd, proofHeight: Height, proof: Uint8Array, portId: string, channelId: string, sequence: bigint): void {
    try {
      const { cs, store } = this.activeClient(ctx, connection);
      const path = prefixedPath(connection.counterparty, `receipts/${packetPath(portId, channelId, sequence)}`);
      verifyNonMembership(ctx, store, cs, proofHeight, connection.delayPeriod, this.blockDelay(ctx, connection), proof, path);
    } catch (err) {
      throw wrapError(err, `failed packet receipt absence verification for client (${connection.clientId})`);
    }
  }

  /** VerifyNextSequenceRecv: the counterparty's next receive sequence (ordered channels). */
  verifyNextSequenceRecv(ctx: Context, connection: ConnectionEnd, proofHeight: Height, proof: Uint8Array, portId: string, channelId: string, nextSequenceRecv: bigint): void {
    const value = new Uint8Array(8);
    new DataView(value.buffer).setBigUint64(0, nextSequenceRecv);
    try {
      this.verify(ctx, connection, proofHeight, proof, `nextSequenceRecv/${channelPath(portId, channelId)}`, value, connection.delayPeriod, this.blockDelay(ctx, connection));
    } catch (err) {
      throw wrapError(err, `failed next sequence receive verification for client (${connection.clientId})`);
    }
  }

  /** VerifyConnectionState: the counterparty stored `expected` at `connections/{id}`. */
  verifyConnectionState(ctx: Context, connection: ConnectionEnd, proofHeight: Height, proof: Uint8Array, connectionId: string, expected: ConnectionEnd): void {
    try {
      this.verify(ctx, connection, proofHeight, proof, connectionPath(connectionId), toBinary(ConnectionEndSchema, expected));
    } catch (err) {
      throw wrapError(err, `failed connection state verification for client (${connection.clientId})`);
    }
  }

  /** VerifyClientState: the counterparty's client of this chain is the one in the message. */
  verifyClientState(ctx: Context, connection: ConnectionEnd, proofHeight: Height, proof: Uint8Array, clientState: Any): void {
    const target = connection.counterparty?.clientId ?? '';
    try {
      this.verify(ctx, connection, proofHeight, proof, fullClientStatePath(target), toBinary(AnySchema, clientState));
    } catch (err) {
      throw wrapError(err, `failed client state verification for target client: ${connection.clientId}`);
    }
  }

  /** VerifyClientConsensusState: that client holds this chain's consensus state at `consensusHeight`. */
  verifyClientConsensusState(ctx: Context, connection: ConnectionEnd, proofHeight: Height, consensusHeight: Height, proof: Uint8Array, consensusState: ConsensusState): void {
    const target = connection.counterparty?.clientId ?? '';
    try {
      this.verify(ctx, connection, proofHeight, proof, fullConsensusStatePath(target, formatHeight(consensusHeight)), toBinary(AnySchema, packConsensusState(consensusState)));
    } catch (err) {
      throw wrapError(err, `failed consensus state verification for client (${connection.clientId})`);
    }
  }

  private checkConsensusHeight(ctx: Context, consensusHeight: Height): void {
    const self = selfHeight(ctx);
    if (compareHeights(consensusHeight, self) >= 0) {
      throw SdkErrors.InvalidHeight.wrap(`consensus height is greater than or equal to the current block height (${formatHeight(consensusHeight)} >= ${formatHeight(self)})`);
    }
  }

  private selfConsensusState(ctx: Context, consensusHeight: Height): ConsensusState {
    try {
      return this.clientKeeper.getSelfConsensusState(ctx, consensusHeight);
    } catch (err) {
      throw wrapError(err, `self consensus state not found for height ${formatHeight(consensusHeight)}`);
    }
  }

  // ------------------------------------------------------------------ handshake

  /** ConnOpenInit: a new connection end in INIT with the offered versions (all supported when none given). */
  connOpenInit(ctx: Context, clientId: string, counterparty: Counterparty, version: Version | undefined, delayPeriod: bigint): string {
    let versions = compatibleVersions();
    if (version !== undefined) {
      if (!isSupportedVersion(versions, version)) throw ConnectionErrors.InvalidVersion.wrap('version is not supported');
      versions = [version];
    }
    // ibc-go v6 asks only that the client exists here (the status check on INIT came in v7).
    const connectionId = this.generateConnectionIdentifier(ctx);
    this.addConnectionToClient(ctx, clientId, connectionId);
    this.setConnection(ctx, connectionId, create(ConnectionEndSchema, { clientId, versions, state: State.INIT, counterparty, delayPeriod }));
    ctx.events.emitAll(connectionEvents(EVENT_TYPE_CONNECTION_OPEN_INIT, connectionId, clientId, counterparty));
    return connectionId;
  }

  /** ConnOpenTry: the counterparty's INIT, its client of this chain and that client's consensus state, proven. */
  connOpenTry(ctx: Context, input: ConnOpenTryInput): string {
    const connectionId = this.generateConnectionIdentifier(ctx);
    this.checkConsensusHeight(ctx, input.consensusHeight);
    this.clientKeeper.validateSelfClient(ctx, input.clientState);
    const expectedConsensus = this.selfConsensusState(ctx, input.consensusHeight);
    const expectedCounterparty = create(CounterpartySchema, { clientId: input.clientId, connectionId: '', prefix: commitmentPrefix() });
    const expected = create(ConnectionEndSchema, {
      clientId: input.counterparty.clientId,
      versions: input.counterpartyVersions,
      state: State.INIT,
      counterparty: expectedCounterparty,
      delayPeriod: input.delayPeriod,
    });
    const version = pickVersion(compatibleVersions(), input.counterpartyVersions);
    const connection = create(ConnectionEndSchema, { clientId: input.clientId, versions: [version], state: State.TRYOPEN, counterparty: input.counterparty, delayPeriod: input.delayPeriod });
    this.verifyConnectionState(ctx, connection, input.proofHeight, input.proofInit, input.counterparty.connectionId, expected);
    this.verifyClientState(ctx, connection, input.proofHeight, input.proofClient, input.clientState);
    this.verifyClientConsensusState(ctx, connection, input.proofHeight, input.consensusHeight, input.proofConsensus, expectedConsensus);
    try {
      this.addConnectionToClient(ctx, input.clientId, connectionId);
    } catch (err) {
      throw wrapError(err, `failed to add connection with ID ${connectionId} to client with ID ${input.clientId}`);
    }
    this.setConnection(ctx, connectionId, connection);
    ctx.events.emitAll(connectionEvents(EVENT_TYPE_CONNECTION_OPEN_TRY, connectionId, input.clientId, input.counterparty));
    return connectionId;
  }

  /** ConnOpenAck: an INIT end opens once the counterparty's TRYOPEN (with the chosen version) is proven. */
  connOpenAck(ctx: Context, input: ConnOpenAckInput): void {
    this.checkConsensusHeight(ctx, input.consensusHeight);
    const connection = this.getConnection(ctx, input.connectionId);
    if (connection === undefined) throw ConnectionErrors.ConnectionNotFound.wrap(input.connectionId);
    if (connection.state !== State.INIT) throw ConnectionErrors.InvalidConnectionState.wrap(`connection state is not INIT (got ${stateName(connection.state)})`);
    if (!isSupportedVersion(connection.versions, input.version)) {
      throw ConnectionErrors.InvalidConnectionState.wrap(`the counterparty selected version ${formatVersion(input.version)} is not supported by versions selected on INIT`);
    }
    this.clientKeeper.validateSelfClient(ctx, input.clientState);
    const expectedConsensus = this.selfConsensusState(ctx, input.consensusHeight);
    const expectedCounterparty = create(CounterpartySchema, { clientId: connection.clientId, connectionId: input.connectionId, prefix: commitmentPrefix() });
    const expected = create(ConnectionEndSchema, {
      clientId: connection.counterparty?.clientId ?? '',
      versions: [input.version],
      state: State.TRYOPEN,
      counterparty: expectedCounterparty,
      delayPeriod: connection.delayPeriod,
    });
    this.verifyConnectionState(ctx, connection, input.proofHeight, input.proofTry, input.counterpartyConnectionId, expected);
    this.verifyClientState(ctx, connection, input.proofHeight, input.proofClient, input.clientState);
    this.verifyClientConsensusState(ctx, connection, input.proofHeight, input.consensusHeight, input.proofConsensus, expectedConsensus);
    const counterparty = create(CounterpartySchema, { ...(connection.counterparty ?? create(CounterpartySchema)), connectionId: input.counterpartyConnectionId });
    const opened = create(ConnectionEndSchema, { ...connection, state: State.OPEN, versions: [input.version], counterparty });
    this.setConnection(ctx, input.connectionId, opened);
    ctx.events.emitAll(connectionEvents(EVENT_TYPE_CONNECTION_OPEN_ACK, input.connectionId, opened.clientId, opened.counterparty));
  }

  /** ConnOpenConfirm: a TRYOPEN end opens once the counterparty's OPEN is proven. */
  connOpenConfirm(ctx: Context, connectionId: string, proofAck: Uint8Array, proofHeight: Height): void {
    const connection = this.getConnection(ctx, connectionId);
    if (connection === undefined) throw ConnectionErrors.ConnectionNotFound.wrap(connectionId);
    if (connection.state !== State.TRYOPEN) throw ConnectionErrors.InvalidConnectionState.wrap(`connection state is not TRYOPEN (got ${stateName(connection.state)})`);
    const expectedCounterparty = create(CounterpartySchema, { clientId: connection.clientId, connectionId, prefix: commitmentPrefix() });
    const expected = create(ConnectionEndSchema, {
      clientId: connection.counterparty?.clientId ?? '',
      versions: connection.versions,
      state: State.OPEN,
      counterparty: expectedCounterparty,
      delayPeriod: connection.delayPeriod,
    });
    this.verifyConnectionState(ctx, connection, proofHeight, proofAck, connection.counterparty?.connectionId ?? '', expected);
    const opened = create(ConnectionEndSchema, { ...connection, state: State.OPEN });
    this.setConnection(ctx, connectionId, opened);
    ctx.events.emitAll(connectionEvents(EVENT_TYPE_CONNECTION_OPEN_CONFIRM, connectionId, opened.clientId, opened.counterparty));
  }
}
