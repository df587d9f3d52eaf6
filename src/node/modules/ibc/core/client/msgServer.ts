/**
 * ibc.core.client.v1.Msg: CreateClient, UpdateClient (a header; a misbehaviour too, as ibc-go v7
 * accepts it), UpgradeClient, SubmitMisbehaviour. Each message is first checked as ibc-go's
 * ValidateBasic does (signer, unpacked states, identifiers), then handed to the keeper; a failure
 * anywhere leaves the store untouched (the message's branch is dropped).
 */
import { create } from '@bufbuild/protobuf';
import { Msg, MsgCreateClientResponseSchema, MsgSubmitMisbehaviourResponseSchema, MsgUpdateClientResponseSchema, MsgUpgradeClientResponseSchema } from '../../../../../gen/ibc/core/client/v1/tx_pb.js';
import { parseAccAddress } from '../../../shared/address.js';
import { SdkErrors, wrapError } from '../../../shared/errors.js';
import { msgRoute, type MsgRoute } from '../../../shared/module.js';
import { clientStateError, consensusStateError, headerError, misbehaviourError } from '../../lightclients/tendermint/client.js';
import { clientIdentifierError } from '../host/identifiers.js';
import { ClientErrors } from './errors.js';
import { unpackClientMessage, unpackClientState, unpackConsensusState, type ClientKeeper } from './keeper.js';

function checkSigner(signer: string): void {
  const parsed = parseAccAddress(signer);
  if (!parsed.ok) throw SdkErrors.InvalidAddress.wrap(`string could not be parsed as address: ${parsed.error}`);
}

function checkClientId(clientId: string): void {
  const invalid = clientIdentifierError(clientId);
  if (invalid !== undefined) throw invalid;
}

export function clientMsgRoutes(keeper: ClientKeeper): MsgRoute[] {
  return [
    msgRoute(Msg.method.createClient, (ctx, msg) => {
      checkSigner(msg.signer);
      const clientState = unpackClientState(msg.clientState);
      const invalid = clientStateError(clientState);
      if (invalid !== undefined) throw invalid;
      const consensusState = unpackConsensusState(msg.consensusState);
      const invalidCons = consensusStateError(consensusState);
      if (invalidCons !== undefined) throw invalidCons;
      keeper.createClient(ctx, clientState, consensusState);
      return create(MsgCreateClientResponseSchema);
    }),
    msgRoute(Msg.method.updateClient, async (ctx, msg) => {
      checkSigner(msg.signer);
      const message = unpackClientMessage(msg.header);
      const invalid = message.kind === 'header' ? headerError(message.header) : misbehaviourError(message.misbehaviour);
      if (invalid !== undefined) throw invalid;
      checkClientId(msg.clientId);
      await keeper.updateClient(ctx, msg.clientId, msg.header!);
      return create(MsgUpdateClientResponseSchema);
    }),
    msgRoute(Msg.method.upgradeClient, (ctx, msg) => {
      const clientState = unpackClientState(msg.clientState);
      const consensusState = unpackConsensusState(msg.consensusState);
      if (msg.proofUpgradeClient.length === 0) throw ClientErrors.InvalidUpgradeClient.wrap('proof of upgrade client cannot be empty');
      if (msg.proofUpgradeConsensusState.length === 0) throw ClientErrors.InvalidUpgradeClient.wrap('proof of upgrade consensus state cannot be empty');
      checkSigner(msg.signer);
      checkClientId(msg.clientId);
      keeper.upgradeClient(ctx, msg.clientId, clientState, consensusState, msg.proofUpgradeClient, msg.proofUpgradeConsensusState);
      return create(MsgUpgradeClientResponseSchema);
    }),
    msgRoute(Msg.method.submitMisbehaviour, async (ctx, msg) => {
      checkSigner(msg.signer);
      const message = unpackClientMessage(msg.misbehaviour);
      if (message.kind !== 'misbehaviour') throw ClientErrors.InvalidMisbehaviour.wrap(`expected a misbehaviour, got ${msg.misbehaviour!.typeUrl}`);
      const invalid = misbehaviourError(message.misbehaviour);
      if (invalid !== undefined) throw invalid;
      checkClientId(msg.clientId);
      try {
        await keeper.checkMisbehaviourAndUpdateState(ctx, msg.clientId, msg.misbehaviour!);
      } catch (err) {
        throw wrapError(err, 'failed to process misbehaviour for IBC client');
      }
      return create(MsgSubmitMisbehaviourResponseSchema);
    }),
  ];
}
