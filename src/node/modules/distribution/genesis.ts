/**
 * x/distribution genesis (SDK 0.46 InitGenesis/ExportGenesis/ValidateGenesis): params, the
 * community pool, withdraw addresses, the previous proposer and every F1 record. The module
 * account must hold exactly the outstanding rewards plus the community pool (truncated).
 */
import { create, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import {
  DelegatorStartingInfoRecordSchema,
  DelegatorWithdrawInfoSchema,
  GenesisStateSchema,
  ValidatorAccumulatedCommissionRecordSchema,
  ValidatorCurrentRewardsRecordSchema,
  ValidatorHistoricalRewardsRecordSchema,
  ValidatorOutstandingRewardsRecordSchema,
  ValidatorSlashEventRecordSchema,
  type GenesisState,
} from '../../../gen/cosmos/distribution/v1beta1/genesis_pb.js';
import { FeePoolSchema, ValidatorAccumulatedCommissionSchema } from '../../../gen/cosmos/distribution/v1beta1/distribution_pb.js';
import { fromGatewayJson, toGatewayJson } from '../../codec/index.js';
import { accString, consString, parseAccAddress, parseConsAddress, parseValAddress, valString } from '../shared/address.js';
import { coinsToString } from '../shared/coins.js';
import type { Context } from '../shared/context.js';
import { decCoinsAdd, decCoinsFromProto, decCoinsTruncate, type DecCoin } from './decCoins.js';
import type { DistributionKeeper } from './keeper.js';
import { AccumulatedCommission, CurrentRewards, FeePool, HistoricalRewards, MODULE_NAME, OutstandingRewards, PreviousProposer, SlashEvents, StartingInfos, WithdrawAddresses } from './keys.js';
import { defaultDistributionParams, validateDistributionParams } from './params.js';

export function defaultDistributionGenesis(): JsonObject {
  return toGatewayJson(GenesisStateSchema, create(GenesisStateSchema, { params: defaultDistributionParams(), feePool: create(FeePoolSchema, { communityPool: [] }) })) as JsonObject;
}

function parse(json: JsonValue | undefined): GenesisState {
  return fromGatewayJson(GenesisStateSchema, json ?? {});
}

export function validateDistributionGenesis(json: JsonValue | undefined): string[] {
  let state: GenesisState;
  try {
    state = parse(json);
  } catch (err) {
    return [`invalid distribution genesis: ${(err as Error).message}`];
  }
  const problems = validateDistributionParams(state.params ?? defaultDistributionParams());
  for (const coin of state.feePool?.communityPool ?? []) if (coin.amount.startsWith('-')) problems.push(`negative community pool coin ${coin.denom}`);
  for (const info of state.delegatorWithdrawInfos) {
    if (!parseAccAddress(info.delegatorAddress).ok || !parseAccAddress(info.withdrawAddress).ok) problems.push(`withdraw info ${info.delegatorAddress} → ${info.withdrawAddress}: invalid address`);
  }
  for (const record of state.outstandingRewards) if (!parseValAddress(record.validatorAddress).ok) problems.push(`outstanding rewards of ${record.validatorAddress}: invalid validator address`);
  return problems;
}

const val = (text: string): Uint8Array => {
  const parsed = parseValAddress(text);
  if (!parsed.ok) throw new Error(`invalid validator address ${text}`);
  return parsed.bytes;
};
const acc = (text: string): Uint8Array => {
  const parsed = parseAccAddress(text);
  if (!parsed.ok) throw new Error(`invalid address ${text}`);
  return parsed.bytes;
};

export async function initDistributionGenesis(ctx: Context, keeper: DistributionKeeper, json: JsonValue | undefined): Promise<void> {
  const state = parse(json);
  keeper.setParams(ctx, state.params ?? defaultDistributionParams());
  FeePool.set(ctx, state.feePool ?? create(FeePoolSchema));
  for (const info of state.delegatorWithdrawInfos) keeper.setWithdrawAddress(ctx, acc(info.delegatorAddress), acc(info.withdrawAddress));
  if (state.previousProposer !== '') {
    const parsed = parseConsAddress(state.previousProposer);
    if (!parsed.ok) throw new Error(`invalid previous proposer ${state.previousProposer}`);
    PreviousProposer.set(ctx, parsed.bytes);
  }
  let holdings: DecCoin[] = decCoinsFromProto(state.feePool?.communityPool ?? []);
  for (const record of state.outstandingRewards) {
    keeper.setOutstanding(ctx, val(record.validatorAddress), decCoinsFromProto(record.outstandingRewards));
    holdings = decCoinsAdd(holdings, decCoinsFromProto(record.outstandingRewards));
  }
  for (const record of state.validatorAccumulatedCommissions) AccumulatedCommission.set(ctx, val(record.validatorAddress), record.accumulated ?? create(ValidatorAccumulatedCommissionSchema));
  for (const record of state.validatorHistoricalRewards) if (record.rewards !== undefined) HistoricalRewards.set(ctx, [val(record.validatorAddress), record.period], record.rewards);
  for (const record of state.validatorCurrentRewards) if (record.rewards !== undefined) CurrentRewards.set(ctx, val(record.validatorAddress), record.rewards);
  for (const record of state.delegatorStartingInfos) if (record.startingInfo !== undefined) StartingInfos.set(ctx, [val(record.validatorAddress), acc(record.delegatorAddress)], record.startingInfo);
  for (const record of state.validatorSlashEvents) if (record.validatorSlashEvent !== undefined) SlashEvents.set(ctx, [val(record.validatorAddress), record.height, record.period], record.validatorSlashEvent);
  const account = keeper.accountKeeper.getModuleAccount(ctx, MODULE_NAME);
  if (account === undefined) throw new Error('distribution module account has not been set');
  const balance = await keeper.bankKeeper.getAllBalances(ctx, account.address);
  const expected = decCoinsTruncate(holdings).coins;
  if (coinsToString(balance) !== coinsToString(expected)) {
    throw new Error(`distribution module balance does not match the module holdings: ${coinsToString(balance) || 'nothing'} <-> ${coinsToString(expected) || 'nothing'}`);
  }
}

export async function exportDistributionGenesis(ctx: Context, keeper: DistributionKeeper): Promise<JsonObject> {
  const state = create(GenesisStateSchema, { params: keeper.getParams(ctx), feePool: FeePool.get(ctx) ?? create(FeePoolSchema) });
  for await (const [delAddr, withdrawAddr] of WithdrawAddresses.iterate(ctx)) state.delegatorWithdrawInfos.push(create(DelegatorWithdrawInfoSchema, { delegatorAddress: accString(delAddr), withdrawAddress: accString(withdrawAddr) }));
  const previous = PreviousProposer.get(ctx);
  state.previousProposer = previous === undefined || previous.length === 0 ? '' : consString(previous);
  for await (const [valAddr, record] of OutstandingRewards.iterate(ctx)) state.outstandingRewards.push(create(ValidatorOutstandingRewardsRecordSchema, { validatorAddress: valString(valAddr), outstandingRewards: record.rewards }));
  for await (const [valAddr, record] of AccumulatedCommission.iterate(ctx)) state.validatorAccumulatedCommissions.push(create(ValidatorAccumulatedCommissionRecordSchema, { validatorAddress: valString(valAddr), accumulated: record }));
  for await (const [[valAddr, period], record] of HistoricalRewards.iterate(ctx)) state.validatorHistoricalRewards.push(create(ValidatorHistoricalRewardsRecordSchema, { validatorAddress: valString(valAddr), period, rewards: record }));
  for await (const [valAddr, record] of CurrentRewards.iterate(ctx)) state.validatorCurrentRewards.push(create(ValidatorCurrentRewardsRecordSchema, { validatorAddress: valString(valAddr), rewards: record }));
  for await (const [[valAddr, delAddr], record] of StartingInfos.iterate(ctx)) state.delegatorStartingInfos.push(create(DelegatorStartingInfoRecordSchema, { delegatorAddress: accString(delAddr), validatorAddress: valString(valAddr), startingInfo: record }));
  for await (const [[valAddr, height, period], record] of SlashEvents.iterate(ctx)) state.validatorSlashEvents.push(create(ValidatorSlashEventRecordSchema, { validatorAddress: valString(valAddr), height, period, validatorSlashEvent: record }));
  return toGatewayJson(GenesisStateSchema, state) as JsonObject;
}
