/**
 * ICS-29 genesis (ibc-go v6 29-fee types/genesis.go, keeper/genesis.go): escrowed fees per packet,
 * fee-enabled channels, payees, counterparty payees and the forward relayers of packets awaiting
 * an asynchronous acknowledgement. Validation reports every problem, one line each, in
 * upstream's wording.
 */
import { create, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import { GenesisStateSchema, type GenesisState } from '../../../../../gen/ibc/applications/fee/v1/genesis_pb.js';
import { fromGatewayJson, toGatewayJson } from '../../../../codec/index.js';
import { parseAccAddress } from '../../../shared/address.js';
import type { Context } from '../../../shared/context.js';
import { channelIdentifierError, portIdentifierError } from '../../core/host/identifiers.js';
import type { FeeKeeper } from './keeper.js';
import { packetFeeError, packetIdError } from './msgServer.js';

export function defaultFeeGenesis(): JsonObject {
  return toGatewayJson(GenesisStateSchema, create(GenesisStateSchema)) as JsonObject;
}

function parse(json: JsonValue | undefined): GenesisState {
  return fromGatewayJson(GenesisStateSchema, json ?? {});
}

export function validateFeeGenesis(json: JsonValue | undefined): string[] {
  let state: GenesisState;
  try {
    state = parse(json);
  } catch (err) {
    return [`invalid feeibc genesis: ${(err as Error).message}`];
  }
  const problems: string[] = [];
  const addressProblem = (text: string, what: string): void => {
    const parsed = parseAccAddress(text);
    if (!parsed.ok) problems.push(`${what}: ${parsed.error}`);
  };
  state.identifiedFees.forEach((identified, i) => {
    const id = packetIdError(identified.packetId);
    if (id !== undefined) problems.push(`identified_fees ${i}: ${id.message}`);
    identified.packetFees.forEach((packetFee, j) => {
      const fee = packetFeeError(packetFee);
      if (fee !== undefined) problems.push(`identified_fees ${i} packet_fees ${j}: ${fee.message}`);
    });
  });
  state.feeEnabledChannels.forEach((channel, i) => {
    const port = portIdentifierError(channel.portId);
    if (port !== undefined) problems.push(`fee_enabled_channels ${i}: invalid source port ID: ${port.message}`);
    const id = channelIdentifierError(channel.channelId);
    if (id !== undefined) problems.push(`fee_enabled_channels ${i}: invalid source channel ID: ${id.message}`);
  });
  state.registeredPayees.forEach((payee, i) => {
    if (payee.relayer === payee.payee) problems.push(`registered_payees ${i}: relayer address and payee address must not be equal: invalid address`);
    addressProblem(payee.relayer, `registered_payees ${i}: failed to convert relayer address into sdk.AccAddress`);
    addressProblem(payee.payee, `registered_payees ${i}: failed to convert payee address into sdk.AccAddress`);
    const id = channelIdentifierError(payee.channelId);
    if (id !== undefined) problems.push(`registered_payees ${i}: invalid channel identifier: ${payee.channelId}: ${id.message}`);
  });
  state.registeredCounterpartyPayees.forEach((payee, i) => {
    addressProblem(payee.relayer, `registered_counterparty_payees ${i}: failed to convert relayer address into sdk.AccAddress`);
    if (payee.counterpartyPayee.trim() === '') problems.push(`registered_counterparty_payees ${i}: counterparty payee must not be empty`);
    const id = channelIdentifierError(payee.channelId);
    if (id !== undefined) problems.push(`registered_counterparty_payees ${i}: invalid channel identifier: ${payee.channelId}: ${id.message}`);
  });
  state.forwardRelayers.forEach((relayer, i) => {
    addressProblem(relayer.address, `forward_relayers ${i}: failed to convert forward relayer address into sdk.AccAddress`);
    const id = packetIdError(relayer.packetId);
    if (id !== undefined) problems.push(`forward_relayers ${i}: ${id.message}`);
  });
  return problems;
}

export async function initFeeGenesis(ctx: Context, keeper: FeeKeeper, json: JsonValue | undefined): Promise<void> {
  const state = parse(json);
  for (const identified of state.identifiedFees) keeper.setFeesInEscrow(ctx, identified.packetId!, identified.packetFees);
  for (const payee of state.registeredPayees) keeper.setPayeeAddress(ctx, payee.relayer, payee.payee, payee.channelId);
  for (const payee of state.registeredCounterpartyPayees) keeper.setCounterpartyPayeeAddress(ctx, payee.relayer, payee.counterpartyPayee, payee.channelId);
  for (const relayer of state.forwardRelayers) keeper.setRelayerAddressForAsyncAck(ctx, relayer.packetId!, relayer.address);
  for (const channel of state.feeEnabledChannels) keeper.setFeeEnabled(ctx, channel.portId, channel.channelId);
}

export async function exportFeeGenesis(ctx: Context, keeper: FeeKeeper): Promise<JsonObject> {
  const state = create(GenesisStateSchema, {
    identifiedFees: await keeper.getAllIdentifiedPacketFees(ctx),
    feeEnabledChannels: await keeper.getAllFeeEnabledChannels(ctx),
    registeredPayees: await keeper.getAllPayees(ctx),
    registeredCounterpartyPayees: await keeper.getAllCounterpartyPayees(ctx),
    forwardRelayers: await keeper.getAllForwardRelayerAddresses(ctx),
  });
  return toGatewayJson(GenesisStateSchema, state) as JsonObject;
}
