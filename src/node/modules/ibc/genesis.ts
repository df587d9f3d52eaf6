/**
 * The ibc module's genesis (ibc.core.types.v1.GenesisState): client_genesis (02-client),
 * connection_genesis (03-connection) and channel_genesis (04-channel: channel ends and packet
 * state at their ICS-24 paths; the handshake and packet messages come next), each validated as
 * ibc-go v6 does, written and exported.
 */
import type { JsonObject, JsonValue } from '@bufbuild/protobuf';
import { GenesisStateSchema } from '../../../gen/ibc/core/client/v1/genesis_pb.js';
import { fromGatewayJson, toGatewayJson } from '../../codec/index.js';
import type { Context } from '../shared/context.js';
import { defaultClientGenesis, exportClientGenesis, initClientGenesis, validateClientGenesis } from './core/client/genesis.js';
import type { ClientKeeper } from './core/client/keeper.js';
import { GenesisStateSchema as ConnectionGenesisSchema } from '../../../gen/ibc/core/connection/v1/genesis_pb.js';
import { defaultConnectionGenesis, exportConnectionGenesis, initConnectionGenesis, validateConnectionGenesis } from './core/connection/genesis.js';
import type { ConnectionKeeper } from './core/connection/keeper.js';
import { GenesisStateSchema as ChannelGenesisSchema } from '../../../gen/ibc/core/channel/v1/genesis_pb.js';
import { defaultChannelGenesis, exportChannelGenesis, initChannelGenesis, validateChannelGenesis } from './core/channel/genesis.js';

export function defaultIbcGenesis(): JsonObject {
  return {
    client_genesis: toGatewayJson(GenesisStateSchema, defaultClientGenesis()) as JsonObject,
    connection_genesis: toGatewayJson(ConnectionGenesisSchema, defaultConnectionGenesis()) as JsonObject,
    channel_genesis: toGatewayJson(ChannelGenesisSchema, defaultChannelGenesis()) as JsonObject,
  };
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseClient(json: JsonValue | undefined): ReturnType<typeof defaultClientGenesis> {
  if (json === undefined || json === null) return defaultClientGenesis();
  return fromGatewayJson(GenesisStateSchema, json);
}

function parseConnection(json: JsonValue | undefined): ReturnType<typeof defaultConnectionGenesis> {
  if (json === undefined || json === null) return defaultConnectionGenesis();
  return fromGatewayJson(ConnectionGenesisSchema, json);
}

function parseChannel(json: JsonValue | undefined): ReturnType<typeof defaultChannelGenesis> {
  if (json === undefined || json === null) return defaultChannelGenesis();
  return fromGatewayJson(ChannelGenesisSchema, json);
}

export function validateIbcGenesis(json: JsonValue | undefined): string[] {
  if (json === undefined || json === null) return [];
  if (!isObject(json)) return ['ibc genesis must be a JSON object'];
  const problems: string[] = [];
  for (const key of Object.keys(json)) {
    if (!['client_genesis', 'connection_genesis', 'channel_genesis'].includes(key)) problems.push(`ibc: unknown field ${key}`);
  }
  try {
    problems.push(...validateClientGenesis(parseClient(json['client_genesis'])));
  } catch (err) {
    problems.push(`ibc.client_genesis: ${(err as Error).message}`);
  }
  try {
    problems.push(...validateConnectionGenesis(parseConnection(json['connection_genesis'])));
  } catch (err) {
    problems.push(`ibc.connection_genesis: ${(err as Error).message}`);
  }
  try {
    problems.push(...validateChannelGenesis(parseChannel(json['channel_genesis'])));
  } catch (err) {
    problems.push(`ibc.channel_genesis: ${(err as Error).message}`);
  }
  return problems;
}

export async function initIbcGenesis(ctx: Context, keeper: ClientKeeper, connectionKeeper: ConnectionKeeper, json: JsonValue | undefined): Promise<void> {
  const problems = validateIbcGenesis(json);
  if (problems.length > 0) throw new Error(`invalid ibc genesis: ${problems.join('; ')}`);
  initClientGenesis(ctx, keeper, parseClient(isObject(json) ? json['client_genesis'] : undefined));
  initConnectionGenesis(ctx, connectionKeeper, parseConnection(isObject(json) ? json['connection_genesis'] : undefined));
  initChannelGenesis(ctx, parseChannel(isObject(json) ? json['channel_genesis'] : undefined));
}

export async function exportIbcGenesis(ctx: Context, keeper: ClientKeeper, connectionKeeper: ConnectionKeeper): Promise<JsonObject> {
  return {
    client_genesis: toGatewayJson(GenesisStateSchema, await exportClientGenesis(ctx, keeper)) as JsonObject,
    connection_genesis: toGatewayJson(ConnectionGenesisSchema, await exportConnectionGenesis(ctx, connectionKeeper)) as JsonObject,
    channel_genesis: toGatewayJson(ChannelGenesisSchema, await exportChannelGenesis(ctx)) as JsonObject,
  };
}
