/** x/slashing genesis: params, signing infos and the missed blocks of the current windows. */
import { create, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import { GenesisStateSchema, MissedBlockSchema, SigningInfoSchema, ValidatorMissedBlocksSchema, type GenesisState } from '../../../gen/cosmos/slashing/v1beta1/genesis_pb.js';
import { fromGatewayJson, toGatewayJson } from '../../codec/index.js';
import { consString, parseConsAddress } from '../shared/address.js';
import type { Context } from '../shared/context.js';
import type { SlashingKeeper } from './keeper.js';
import { MissedBlocks, SigningInfos } from './keys.js';
import { defaultSlashingParams, validateSlashingParams } from './params.js';

export function defaultSlashingGenesis(): JsonObject {
  return toGatewayJson(GenesisStateSchema, create(GenesisStateSchema, { params: defaultSlashingParams() })) as JsonObject;
}

function parse(json: JsonValue | undefined): GenesisState {
  return fromGatewayJson(GenesisStateSchema, json ?? {});
}

export function validateSlashingGenesis(json: JsonValue | undefined): string[] {
  let state: GenesisState;
  try {
    state = parse(json);
  } catch (err) {
    return [`invalid slashing genesis: ${(err as Error).message}`];
  }
  const problems = validateSlashingParams(state.params ?? defaultSlashingParams());
  for (const info of state.signingInfos) if (!parseConsAddress(info.address).ok) problems.push(`signing info of "${info.address}": invalid consensus address`);
  return problems;
}

const cons = (text: string): Uint8Array => {
  const parsed = parseConsAddress(text);
  if (!parsed.ok) throw new Error(`invalid consensus address ${text}: ${parsed.error}`);
  return parsed.bytes;
};

export async function initSlashingGenesis(ctx: Context, keeper: SlashingKeeper, json: JsonValue | undefined): Promise<void> {
  const state = parse(json);
  keeper.setParams(ctx, state.params ?? defaultSlashingParams());
  for (const info of state.signingInfos) if (info.validatorSigningInfo !== undefined) keeper.setSigningInfo(ctx, cons(info.address), info.validatorSigningInfo);
  for (const record of state.missedBlocks) for (const block of record.missedBlocks) if (block.missed) MissedBlocks.set(ctx, [cons(record.address), BigInt(block.index)], true);
}

export async function exportSlashingGenesis(ctx: Context, keeper: SlashingKeeper): Promise<JsonObject> {
  const state = create(GenesisStateSchema, { params: keeper.getParams(ctx) });
  for await (const [consAddr, info] of SigningInfos.iterate(ctx)) {
    state.signingInfos.push(create(SigningInfoSchema, { address: consString(consAddr), validatorSigningInfo: info }));
    const missed = [];
    for await (const [[, index]] of MissedBlocks.iterate(ctx, { prefix: [consAddr] })) missed.push(create(MissedBlockSchema, { index, missed: true }));
    state.missedBlocks.push(create(ValidatorMissedBlocksSchema, { address: consString(consAddr), missedBlocks: missed }));
  }
  return toGatewayJson(GenesisStateSchema, state) as JsonObject;
}
