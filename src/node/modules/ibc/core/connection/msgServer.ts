/**
 * ibc.core.connection.v1.Msg: the four handshake steps. Each message is first checked as ibc-go
 * v6's ValidateBasic does (identifiers, counterparty, versions, the counterparty's client state,
 * non-empty proofs, non-zero heights, signer), then handed to the keeper; a keeper failure is
 * wrapped as ibc-go's msg server does ("connection handshake open … failed").
 */
import { create } from '@bufbuild/protobuf';
import type { Any } from '@bufbuild/protobuf/wkt';
import type { Counterparty } from '../../../../../gen/ibc/core/connection/v1/connection_pb.js';
import {
  Msg,
  MsgConnectionOpenAckResponseSchema,
  MsgConnectionOpenConfirmResponseSchema,
  MsgConnectionOpenInitResponseSchema,
  MsgConnectionOpenTryResponseSchema,
} from '../../../../../gen/ibc/core/connection/v1/tx_pb.js';
import { parseAccAddress } from '../../../shared/address.js';
import { SdkErrors, wrapError } from '../../../shared/errors.js';
import { msgRoute, type MsgRoute } from '../../../shared/module.js';
import { clientStateError } from '../../lightclients/tendermint/client.js';
import { ClientErrors } from '../client/errors.js';
import { ZERO_HEIGHT, isZeroHeight, type Height } from '../client/height.js';
import { unpackClientState } from '../client/keeper.js';
import { CommitmentErrors } from '../commitment/errors.js';
import { clientIdentifierError, connectionIdentifierError, parseConnectionSequence } from '../host/identifiers.js';
import { ConnectionErrors } from './errors.js';
import type { ConnectionKeeper } from './keeper.js';
import { versionError } from './version.js';

function checkSigner(signer: string): void {
  const parsed = parseAccAddress(signer);
  if (!parsed.ok) throw SdkErrors.InvalidAddress.wrap(`string could not be parsed as address: ${parsed.error}`);
}

function checkClientId(clientId: string): void {
  const invalid = clientIdentifierError(clientId);
  if (invalid !== undefined) throw wrapError(invalid, 'invalid client ID');
}

/** IsValidConnectionID: `connection-{N}`. */
function checkConnectionId(connectionId: string): void {
  if (parseConnectionSequence(connectionId) === undefined) throw ConnectionErrors.InvalidConnectionIdentifier.error();
}

/** Counterparty.ValidateBasic. */
export function counterpartyError(counterparty: Counterparty | undefined): Error | undefined {
  const connectionId = counterparty?.connectionId ?? '';
  if (connectionId !== '') {
    const invalid = connectionIdentifierError(connectionId);
    if (invalid !== undefined) return ConnectionErrors.InvalidCounterparty.wrap(invalid.message);
  }
  const invalidClient = clientIdentifierError(counterparty?.clientId ?? '');
  if (invalidClient !== undefined) return ConnectionErrors.InvalidCounterparty.wrap(invalidClient.message);
  if ((counterparty?.prefix?.keyPrefix.length ?? 0) === 0) return ConnectionErrors.InvalidCounterparty.wrap('counterparty prefix cannot be empty');
  return undefined;
}

/** The counterparty's client of this chain: present, a client state this chain runs, valid. */
function checkCounterpartyClient(any: Any | undefined): Any {
  if (any === undefined) throw ClientErrors.InvalidClient.wrap('counterparty client is nil');
  let cs;
  try {
    cs = unpackClientState(any);
  } catch (err) {
    throw ClientErrors.InvalidClient.wrap(`unpack err: ${(err as Error).message}`);
  }
  const invalid = clientStateError(cs);
  if (invalid !== undefined) throw wrapError(invalid, 'counterparty client is invalid');
  return any;
}

function checkProof(proof: Uint8Array, message: string): void {
  if (proof.length === 0) throw CommitmentErrors.InvalidProof.wrap(message);
}

function checkProofHeight(proofHeight: Height | undefined): void {
  if (isZeroHeight(proofHeight ?? ZERO_HEIGHT)) throw ClientErrors.InvalidHeight.wrap('proof height must be non-zero');
}

function checkHeights(proofHeight: Height | undefined, consensusHeight: Height | undefined): void {
  checkProofHeight(proofHeight);
  if (isZeroHeight(consensusHeight ?? ZERO_HEIGHT)) throw ClientErrors.InvalidHeight.wrap('consensus height must be non-zero');
}

export function connectionMsgRoutes(keeper: ConnectionKeeper): MsgRoute[] {
  return [
    msgRoute(Msg.method.connectionOpenInit, (ctx, msg) => {
      checkClientId(msg.clientId);
      if ((msg.counterparty?.connectionId ?? '') !== '') throw ConnectionErrors.InvalidCounterparty.wrap('counterparty connection identifier must be empty');
      if (msg.version !== undefined) {
        const invalid = versionError(msg.version);
        if (invalid !== undefined) throw wrapError(invalid, 'basic validation of the provided version failed');
      }
      checkSigner(msg.signer);
      const invalidCounterparty = counterpartyError(msg.counterparty);
      if (invalidCounterparty !== undefined) throw invalidCounterparty;
      try {
        keeper.connOpenInit(ctx, msg.clientId, msg.counterparty!, msg.version, msg.delayPeriod);
      } catch (err) {
        throw wrapError(err, 'connection handshake open init failed');
      }
      return create(MsgConnectionOpenInitResponseSchema);
    }),
    msgRoute(Msg.method.connectionOpenTry, (ctx, msg) => {
      if (msg.previousConnectionId !== '') {
        throw ConnectionErrors.InvalidConnectionIdentifier.wrap('previous connection identifier must be empty, this field has been deprecated as crossing hellos are no longer supported');
      }
      checkClientId(msg.clientId);
      if ((msg.counterparty?.connectionId ?? '') === '') throw ConnectionErrors.InvalidCounterparty.wrap('counterparty connection identifier cannot be empty');
      const invalidCounterparty = counterpartyError(msg.counterparty);
      if (invalidCounterparty !== undefined) throw invalidCounterparty;
      const clientState = checkCounterpartyClient(msg.clientState);
      if (msg.counterpartyVersions.length === 0) throw ConnectionErrors.InvalidVersion.wrap('empty counterparty versions');
      msg.counterpartyVersions.forEach((version, i) => {
        const invalid = versionError(version);
        if (invalid !== undefined) throw wrapError(invalid, `basic validation failed on version with index ${i}`);
      });
      checkProof(msg.proofInit, 'cannot submit an empty proof init');
      checkProof(msg.proofClient, 'cannot submit empty proof client');
      checkProof(msg.proofConsensus, 'cannot submit an empty proof of consensus state');
      checkHeights(msg.proofHeight, msg.consensusHeight);
      checkSigner(msg.signer);
      try {
        keeper.connOpenTry(ctx, {
          counterparty: msg.counterparty!,
          delayPeriod: msg.delayPeriod,
          clientId: msg.clientId,
          clientState,
          counterpartyVersions: msg.counterpartyVersions,
          proofInit: msg.proofInit,
          proofClient: msg.proofClient,
          proofConsensus: msg.proofConsensus,
          proofHeight: msg.proofHeight!,
          consensusHeight: msg.consensusHeight!,
        });
      } catch (err) {
        throw wrapError(err, 'connection handshake open try failed');
      }
      return create(MsgConnectionOpenTryResponseSchema);
    }),
    msgRoute(Msg.method.connectionOpenAck, (ctx, msg) => {
      checkConnectionId(msg.connectionId);
      const invalidId = connectionIdentifierError(msg.counterpartyConnectionId);
      if (invalidId !== undefined) throw wrapError(invalidId, 'invalid counterparty connection ID');
      const invalidVersion = versionError(msg.version);
      if (invalidVersion !== undefined) throw invalidVersion;
      const clientState = checkCounterpartyClient(msg.clientState);
      checkProof(msg.proofTry, 'cannot submit an empty proof try');
      checkProof(msg.proofClient, 'cannot submit empty proof client');
      checkProof(msg.proofConsensus, 'cannot submit an empty proof of consensus state');
      checkHeights(msg.proofHeight, msg.consensusHeight);
      checkSigner(msg.signer);
      try {
        keeper.connOpenAck(ctx, {
          connectionId: msg.connectionId,
          clientState,
          version: msg.version!,
          counterpartyConnectionId: msg.counterpartyConnectionId,
          proofTry: msg.proofTry,
          proofClient: msg.proofClient,
          proofConsensus: msg.proofConsensus,
          proofHeight: msg.proofHeight!,
          consensusHeight: msg.consensusHeight!,
        });
      } catch (err) {
        throw wrapError(err, 'connection handshake open ack failed');
      }
      return create(MsgConnectionOpenAckResponseSchema);
    }),
    msgRoute(Msg.method.connectionOpenConfirm, (ctx, msg) => {
      checkConnectionId(msg.connectionId);
      checkProof(msg.proofAck, 'cannot submit an empty proof ack');
      checkProofHeight(msg.proofHeight);
      checkSigner(msg.signer);
      try {
        keeper.connOpenConfirm(ctx, msg.connectionId, msg.proofAck, msg.proofHeight!);
      } catch (err) {
        throw wrapError(err, 'connection handshake open confirm failed');
      }
      return create(MsgConnectionOpenConfirmResponseSchema);
    }),
  ];
}
