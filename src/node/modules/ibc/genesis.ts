/**
 * The ibc module's genesis (ibc.core.types.v1.GenesisState): client_genesis (02-client),
 * connection_genesis (03-connection) and channel_genesis (04-channel). The channel submodule
 * comes next; until then its section is accepted only in its default (empty) form — a state this
 * node could not carry — and exported as ibc-go v6's defaults.
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

/** ibc-go v6's default 04-channel genesis. */
export function defaultChannelGenesis(): JsonObject {
  return { channels: [], acknowledgements: [], commitments: [], receipts: [], send_sequences: [], recv_sequences: [], ack_sequences: [], next_channel_sequence: '0' };
}

export function defaultIbcGenesis(): JsonObject {
  return {
    client_genesis: toGatewayJson(GenesisStateSchema, defaultClientGenesis()) as JsonObject,
    connection_genesis: toGatewayJson(ConnectionGenesisSchema, defaultConnectionGenesis()) as JsonObject,
    channel_genesis: defaultChannelGenesis(),
  };
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The problem with a connection/channel section: only the default (empty) state is carried. */
function sectionProblem(name: string, value: JsonValue | undefined, defaults: JsonObject): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) return `ibc.${name} must be a JSON object`;
  for (const [key, entry] of Object.entries(value)) {
    if (!(key in defaults)) return `ibc.${name}: unknown field ${key}`;
    const expected = defaults[key];
    if (Array.isArray(expected) ? !(Array.isArray(entry) && entry.length === 0) : JSON.stringify(entry) !== JSON.stringify(expected) && !(key.startsWith('next_') && (entry === 0 || entry === '0'))) {
      return `ibc.${name}.${key}: the ${name.replace('_genesis', '')} submodule is not part of this node yet; only its default (empty) state can be carried`;
    }
  }
  return undefined;
}

function parseClient(json: JsonValue | undefined): ReturnType<typeof defaultClientGenesis> {
  if (json === undefined || json === null) return defaultClientGenesis();
  return fromGatewayJson(GenesisStateSchema, json);
}

function parseConnection(json: JsonValue | undefined): ReturnType<typeof defaultConnectionGenesis> {
  if (json === undefined || json === null) return defaultConnectionGenesis();
  return fromGatewayJson(ConnectionGenesisSchema, json);
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
  const channel = sectionProblem('channel_genesis', json['channel_genesis'], defaultChannelGenesis());
  if (channel !== undefined) problems.push(channel);
  return problems;
}

export async function initIbcGenesis(ctx: Context, keeper: ClientKeeper, connectionKeeper: ConnectionKeeper, json: JsonValue | undefined): Promise<void> {
  const problems = validateIbcGenesis(json);
  if (problems.length > 0) throw new Error(`invalid ibc genesis: ${problems.join('; ')}`);
  initClientGenesis(ctx, keeper, parseClient(isObject(json) ? json['client_genesis'] : undefined));
  initConnectionGenesis(ctx, connectionKeeper, parseConnection(isObject(json) ? json['connection_genesis'] : undefined));
}

export async function exportIbcGenesis(ctx: Context, keeper: ClientKeeper, connectionKeeper: ConnectionKeeper): Promise<JsonObject> {
  return {
    client_genesis: toGatewayJson(GenesisStateSchema, await exportClientGenesis(ctx, keeper)) as JsonObject,
    connection_genesis: toGatewayJson(ConnectionGenesisSchema, await exportConnectionGenesis(ctx, connectionKeeper)) as JsonObject,
    channel_genesis: defaultChannelGenesis(),
  };
}
