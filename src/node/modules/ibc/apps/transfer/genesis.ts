/**
 * ICS-20 genesis (ibc-go v6): `{ port_id, denom_traces, params }`. Validation: a valid port id,
 * valid traces with no hash twice. InitGenesis stores the port, the traces and the params, binds
 * the port (claiming its capability) unless already bound and makes sure the module account exists.
 */
import { create, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import { GenesisStateSchema, type GenesisState } from '../../../../../gen/ibc/applications/transfer/v1/genesis_pb.js';
import { fromGatewayJson, toGatewayJson } from '../../../../codec/index.js';
import { portIdentifierError } from '../../core/host/identifiers.js';
import type { Context } from '../../../shared/context.js';
import { denomTracesError } from './denom.js';
import { defaultTransferParams, type TransferKeeper } from './keeper.js';
import { TRANSFER_MODULE_NAME, TRANSFER_PORT_ID } from './keys.js';

export function defaultTransferGenesis(): JsonObject {
  return toGatewayJson(GenesisStateSchema, create(GenesisStateSchema, { portId: TRANSFER_PORT_ID, denomTraces: [], params: defaultTransferParams() })) as JsonObject;
}

export function parseTransferGenesis(json: JsonValue | undefined): GenesisState {
  return fromGatewayJson(GenesisStateSchema, json ?? {});
}

export function validateTransferGenesis(json: JsonValue | undefined): string[] {
  let state: GenesisState;
  try {
    state = parseTransferGenesis(json);
  } catch (err) {
    return [`invalid ${TRANSFER_MODULE_NAME} genesis: ${(err as Error).message}`];
  }
  const problems: string[] = [];
  const port = portIdentifierError(state.portId);
  if (port !== undefined) problems.push(`port_id: ${port.message}`);
  const traces = denomTracesError(state.denomTraces);
  if (traces !== undefined) problems.push(`denom_traces: ${traces.message}`);
  return problems;
}

export function initTransferGenesis(ctx: Context, keeper: TransferKeeper, json: JsonValue | undefined): void {
  const state = parseTransferGenesis(json);
  keeper.setPort(ctx, state.portId);
  for (const trace of state.denomTraces) keeper.setDenomTrace(ctx, trace);
  if (!keeper.isBound(ctx, state.portId)) keeper.bindPort(ctx, state.portId);
  keeper.setParams(ctx, state.params ?? defaultTransferParams());
  keeper.accounts.getModuleAccount(ctx, TRANSFER_MODULE_NAME);
}

export async function exportTransferGenesis(ctx: Context, keeper: TransferKeeper): Promise<JsonObject> {
  const state = create(GenesisStateSchema, { portId: keeper.getPort(ctx), denomTraces: await keeper.allDenomTraces(ctx), params: keeper.getParams(ctx) });
  return toGatewayJson(GenesisStateSchema, state) as JsonObject;
}
