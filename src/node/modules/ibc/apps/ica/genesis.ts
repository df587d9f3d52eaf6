/**
 * The "interchainaccounts" app_state entry (ibc-go v6 genesis/types): `{controller_genesis_state,
 * host_genesis_state}`, each with active channels, interchain accounts, the bound port(s) and params.
 * Export re-imports to the same state.
 */
import { create, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import { ControllerGenesisStateSchema, GenesisStateSchema, HostGenesisStateSchema, type ActiveChannel, type GenesisState, type RegisteredInterchainAccount } from '../../../../../gen/ibc/applications/interchain_accounts/genesis/v1/genesis_pb.js';
import { fromGatewayJson, toGatewayJson } from '../../../../codec/index.js';
import type { Context } from '../../../shared/context.js';
import { channelIdentifierError, portIdentifierError } from '../../core/host/identifiers.js';
import { defaultControllerParams, type ControllerKeeper } from './controller/keeper.js';
import { defaultHostParams, hostParamsProblems, type HostKeeper } from './host/keeper.js';
import { HOST_PORT_ID, accountAddressError } from './types.js';

export function defaultIcaGenesisState(): GenesisState {
  return create(GenesisStateSchema, {
    controllerGenesisState: create(ControllerGenesisStateSchema, { params: defaultControllerParams() }),
    hostGenesisState: create(HostGenesisStateSchema, { port: HOST_PORT_ID, params: defaultHostParams() }),
  });
}

export function defaultIcaGenesis(): JsonObject {
  return toGatewayJson(GenesisStateSchema, defaultIcaGenesisState()) as JsonObject;
}

export function parseIcaGenesis(json: JsonValue | undefined): GenesisState {
  return json === undefined ? defaultIcaGenesisState() : fromGatewayJson(GenesisStateSchema, json);
}

function channelsAndAccountsProblems(side: string, channels: readonly ActiveChannel[], accounts: readonly RegisteredInterchainAccount[]): string[] {
  const problems: string[] = [];
  channels.forEach((channel, i) => {
    const problem = channelIdentifierError(channel.channelId) ?? portIdentifierError(channel.portId);
    if (problem !== undefined) problems.push(`${side} active channel ${i}: ${problem.message}`);
  });
  accounts.forEach((account, i) => {
    const problem = portIdentifierError(account.portId) ?? accountAddressError(account.accountAddress);
    if (problem !== undefined) problems.push(`${side} interchain account ${i}: ${problem.message}`);
  });
  return problems;
}

/** GenesisState.Validate, one line per problem. */
export function validateIcaGenesis(json: JsonValue | undefined): string[] {
  let state: GenesisState;
  try {
    state = parseIcaGenesis(json);
  } catch (err) {
    return [`invalid interchainaccounts genesis: ${(err as Error).message}`];
  }
  const controller = state.controllerGenesisState ?? create(ControllerGenesisStateSchema);
  const host = state.hostGenesisState ?? create(HostGenesisStateSchema);
  const problems = [...channelsAndAccountsProblems('controller', controller.activeChannels, controller.interchainAccounts)];
  controller.ports.forEach((port, i) => {
    const problem = portIdentifierError(port);
    if (problem !== undefined) problems.push(`controller port ${i}: ${problem.message}`);
  });
  problems.push(...channelsAndAccountsProblems('host', host.activeChannels, host.interchainAccounts));
  const hostPortProblem = portIdentifierError(host.port);
  if (hostPortProblem !== undefined) problems.push(`host port: ${hostPortProblem.message}`);
  problems.push(...hostParamsProblems(host.params ?? defaultHostParams()).map((problem) => `host params: ${problem}`));
  return problems;
}

/** InitGenesis: binds the ports not bound yet, then the active channels, accounts and params of both submodules. */
export function initIcaGenesis(ctx: Context, controller: ControllerKeeper, host: HostKeeper, json: JsonValue | undefined): void {
  const state = parseIcaGenesis(json);
  const controllerState = state.controllerGenesisState ?? create(ControllerGenesisStateSchema);
  const hostState = state.hostGenesisState ?? create(HostGenesisStateSchema);

  for (const port of controllerState.ports) {
    if (!controller.isBound(ctx, port)) controller.bindPort(ctx, port);
  }
  for (const channel of controllerState.activeChannels) {
    controller.setActiveChannelId(ctx, channel.connectionId, channel.portId, channel.channelId);
    controller.setMiddlewareEnabled(ctx, channel.portId, channel.connectionId, channel.isMiddlewareEnabled);
  }
  for (const account of controllerState.interchainAccounts) controller.setInterchainAccountAddress(ctx, account.connectionId, account.portId, account.accountAddress);
  controller.setParams(ctx, controllerState.params ?? defaultControllerParams());

  if (!host.isBound(ctx, hostState.port)) host.bindPort(ctx, hostState.port);
  for (const channel of hostState.activeChannels) host.setActiveChannelId(ctx, channel.connectionId, channel.portId, channel.channelId);
  for (const account of hostState.interchainAccounts) host.setInterchainAccountAddress(ctx, account.connectionId, account.portId, account.accountAddress);
  host.setParams(ctx, hostState.params ?? defaultHostParams());
}

export async function exportIcaGenesis(ctx: Context, controller: ControllerKeeper, host: HostKeeper): Promise<JsonObject> {
  const state = create(GenesisStateSchema, {
    controllerGenesisState: create(ControllerGenesisStateSchema, {
      activeChannels: await controller.exportActiveChannels(ctx),
      interchainAccounts: await controller.exportInterchainAccounts(ctx),
      ports: await controller.exportPorts(ctx),
      params: controller.getParams(ctx),
    }),
    hostGenesisState: create(HostGenesisStateSchema, {
      activeChannels: await host.exportActiveChannels(ctx),
      interchainAccounts: await host.exportInterchainAccounts(ctx),
      port: HOST_PORT_ID,
      params: host.getParams(ctx),
    }),
  });
  return toGatewayJson(GenesisStateSchema, state) as JsonObject;
}
