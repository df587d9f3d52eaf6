/**
 * The connection submodule's genesis (ibc-go v6 03-connection/genesis.go and types/genesis.go):
 * connection ends with their identifiers, each client's connections, the next connection
 * sequence (above every `connection-N` used) and params (max_expected_time_per_block > 0).
 */
import { create } from '@bufbuild/protobuf';
import { ConnectionEndSchema, ConnectionPathsSchema, IdentifiedConnectionSchema } from '../../../../../gen/ibc/core/connection/v1/connection_pb.js';
import { GenesisStateSchema, type GenesisState } from '../../../../../gen/ibc/core/connection/v1/genesis_pb.js';
import type { Context } from '../../../shared/context.js';
import { clientIdentifierError, connectionIdentifierError, parseConnectionSequence } from '../host/identifiers.js';
import { defaultConnectionParams, type ConnectionKeeper } from './keeper.js';
import { Connections } from './keys.js';
import { counterpartyError } from './msgServer.js';
import { versionError } from './version.js';

export function defaultConnectionGenesis(): GenesisState {
  return create(GenesisStateSchema, { connections: [], clientConnectionPaths: [], nextConnectionSequence: 0n, params: defaultConnectionParams() });
}

export function validateConnectionGenesis(gs: GenesisState): string[] {
  const problems: string[] = [];
  let maxSequence = 0n;
  gs.connections.forEach((connection, i) => {
    const sequence = parseConnectionSequence(connection.id);
    if (sequence === undefined) {
      problems.push(`connection_genesis.connections[${i}]: connection identifier ${connection.id} is not in the format: \`connection-{N}\``);
      return;
    }
    if (sequence > maxSequence) maxSequence = sequence;
    const invalidClient = clientIdentifierError(connection.clientId);
    const problem =
      invalidClient?.message ??
      (connection.versions.length === 0 ? 'empty connection versions' : undefined) ??
      connection.versions.map((version) => versionError(version)?.message).find((message) => message !== undefined) ??
      counterpartyError(connection.counterparty)?.message;
    if (problem !== undefined) problems.push(`connection_genesis.connections[${i}]: invalid connection ${connection.id}: ${problem}`);
  });
  gs.clientConnectionPaths.forEach((paths, i) => {
    const invalid = clientIdentifierError(paths.clientId);
    if (invalid !== undefined) problems.push(`connection_genesis.client_connection_paths[${i}]: invalid client connection path ${i}: ${invalid.message}`);
    for (const id of paths.paths) {
      const invalidId = connectionIdentifierError(id);
      if (invalidId !== undefined) problems.push(`connection_genesis.client_connection_paths[${i}]: invalid client connection ID (${id}) in connection paths ${i}: ${invalidId.message}`);
    }
  });
  if (maxSequence !== 0n && maxSequence >= gs.nextConnectionSequence) {
    problems.push(`connection_genesis: next connection sequence ${gs.nextConnectionSequence} must be greater than maximum sequence used in connection identifier ${maxSequence}`);
  }
  if ((gs.params?.maxExpectedTimePerBlock ?? 0n) === 0n) problems.push('connection_genesis.params: MaxExpectedTimePerBlock cannot be zero');
  return problems;
}

export function initConnectionGenesis(ctx: Context, keeper: ConnectionKeeper, gs: GenesisState): void {
  keeper.setParams(ctx, gs.params ?? defaultConnectionParams());
  for (const c of gs.connections) {
    keeper.setConnection(ctx, c.id, create(ConnectionEndSchema, { clientId: c.clientId, versions: c.versions, state: c.state, counterparty: c.counterparty, delayPeriod: c.delayPeriod }));
  }
  for (const paths of gs.clientConnectionPaths) keeper.setClientConnectionPaths(ctx, paths.clientId, paths.paths);
  keeper.setNextConnectionSequence(ctx, gs.nextConnectionSequence);
}

export async function exportConnectionGenesis(ctx: Context, keeper: ConnectionKeeper): Promise<GenesisState> {
  const connections = [];
  for await (const [id, end] of Connections.iterate(ctx)) {
    connections.push(create(IdentifiedConnectionSchema, { id, clientId: end.clientId, versions: end.versions, state: end.state, counterparty: end.counterparty, delayPeriod: end.delayPeriod }));
  }
  const clientConnectionPaths = [];
  for (const clientId of await keeper.clientKeeper.clientIds(ctx)) {
    const paths = keeper.getClientConnectionPaths(ctx, clientId);
    if (paths !== undefined) clientConnectionPaths.push(create(ConnectionPathsSchema, { clientId, paths }));
  }
  return create(GenesisStateSchema, { connections, clientConnectionPaths, nextConnectionSequence: keeper.getNextConnectionSequence(ctx), params: keeper.getParams(ctx) });
}
