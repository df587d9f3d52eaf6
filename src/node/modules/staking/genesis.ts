/**
 * x/staking genesis (SDK 0.50 InitGenesis/ExportGenesis/ValidateGenesis): params, validators,
 * delegations, last powers. A fresh genesis computes the initial set with the end-block update;
 * an exported one (exported: true) replays its last validator powers. Pool balances must match
 * the validators' tokens by status.
 */
import { create, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { GenesisStateSchema, LastValidatorPowerSchema, type GenesisState } from '../../../gen/cosmos/staking/v1beta1/genesis_pb.js';
import { BondStatus } from '../../../gen/cosmos/staking/v1beta1/staking_pb.js';
import type { ValidatorUpdate } from '../../abci/types.js';
import { fromGatewayJson, toGatewayJson } from '../../codec/index.js';
import { BONDED_POOL_NAME, NOT_BONDED_POOL_NAME } from './keys.js';
import { parseAccAddress, parseValAddress, valString } from '../shared/address.js';
import type { Context } from '../shared/context.js';
import { decFromWire } from '../shared/dec.js';
import { fromUtf8, utf8 } from '../shared/keys.js';
import type { GenesisDefaults } from '../shared/module.js';
import type { StakingKeeper } from './keeper.js';
import { defaultStakingParams, validateStakingParams } from './params.js';
import { abciValidatorUpdate, consensusKeyOf, operatorAddress, validatorTokens } from './validator.js';

export function defaultStakingGenesis(defaults: GenesisDefaults): JsonObject {
  const json = toGatewayJson(
    GenesisStateSchema,
    create(GenesisStateSchema, { params: defaultStakingParams(defaults.denom), lastTotalPower: utf8('0'), lastValidatorPowers: [], validators: [], delegations: [], unbondingDelegations: [], redelegations: [], exported: false }),
  ) as JsonObject;
  (json.params as JsonObject).accept_all_validators = true;
  return json;
}

/**
 * The network's genesis keeps `accept_all_validators` inside `params` (aioz.staking.v1beta1
 * Params field 101); the rest is the SDK's staking genesis. Absent means true.
 */
export function acceptAllFromGenesis(json: JsonValue | undefined): boolean {
  const params = (json as JsonObject | undefined)?.params as JsonObject | undefined;
  const value = params?.accept_all_validators ?? params?.acceptAllValidators;
  return value === undefined || value === null ? true : value === true;
}

function withoutAcceptAll(json: JsonValue | undefined): JsonValue {
  const object = (json ?? {}) as JsonObject;
  const params = object.params as JsonObject | undefined;
  if (params === undefined || params === null || typeof params !== 'object') return object;
  const { accept_all_validators: _a, acceptAllValidators: _b, ...rest } = params;
  return { ...object, params: rest };
}

export function parseStakingGenesis(json: JsonValue | undefined): GenesisState {
  return fromGatewayJson(GenesisStateSchema, withoutAcceptAll(json));
}

export function validateStakingGenesis(json: JsonValue | undefined): string[] {
  let state: GenesisState;
  try {
    state = parseStakingGenesis(json);
  } catch (err) {
    return [`invalid staking genesis: ${(err as Error).message}`];
  }
  const problems = validateStakingParams(state.params ?? defaultStakingParams());
  const rawAccept = ((json as JsonObject | undefined)?.params as JsonObject | undefined)?.accept_all_validators;
  if (rawAccept !== undefined && typeof rawAccept !== 'boolean') problems.push(`accept_all_validators must be true or false, got ${JSON.stringify(rawAccept)}`);
  const seen = new Set<string>();
  for (const validator of state.validators) {
    const moniker = validator.description?.moniker ?? '';
    const parsed = parseValAddress(validator.operatorAddress);
    if (!parsed.ok) {
      problems.push(`validator ${validator.operatorAddress}: ${parsed.error}`);
      continue;
    }
    if (seen.has(validator.operatorAddress)) problems.push(`duplicate validator in genesis state: moniker ${moniker}, address ${validator.operatorAddress}`);
    seen.add(validator.operatorAddress);
    if (validator.jailed && validator.status === BondStatus.BONDED) problems.push(`validator is bonded and jailed in genesis state: moniker ${moniker}, address ${validator.operatorAddress}`);
    if ((decFromWire(validator.delegatorShares) ?? 0n) === 0n && validator.status !== BondStatus.UNBONDING) {
      problems.push(`bonded/unbonded genesis validator cannot have zero delegator shares, validator: ${validator.operatorAddress}`);
    }
    try {
      consensusKeyOf(validator.consensusPubkey);
    } catch (err) {
      problems.push(`validator ${validator.operatorAddress}: ${(err as Error).message}`);
    }
  }
  for (const delegation of state.delegations) {
    const delegator = parseAccAddress(delegation.delegatorAddress);
    if (!delegator.ok) problems.push(`delegation of "${delegation.delegatorAddress}": ${delegator.error}`);
    const validator = parseValAddress(delegation.validatorAddress);
    if (!validator.ok) problems.push(`delegation to "${delegation.validatorAddress}": ${validator.error}`);
  }
  for (const ubd of state.unbondingDelegations) {
    if (!parseAccAddress(ubd.delegatorAddress).ok || !parseValAddress(ubd.validatorAddress).ok) problems.push(`unbonding delegation ${ubd.delegatorAddress} → ${ubd.validatorAddress}: invalid address`);
    for (const entry of ubd.entries) if (!/^[0-9]+$/.test(entry.balance)) problems.push(`unbonding delegation ${ubd.delegatorAddress} → ${ubd.validatorAddress}: invalid balance ${entry.balance}`);
  }
  for (const red of state.redelegations) {
    if (!parseAccAddress(red.delegatorAddress).ok || !parseValAddress(red.validatorSrcAddress).ok || !parseValAddress(red.validatorDstAddress).ok) {
      problems.push(`redelegation ${red.delegatorAddress} ${red.validatorSrcAddress} → ${red.validatorDstAddress}: invalid address`);
    }
  }
  return problems;
}

export async function initStakingGenesis(ctx: Context, keeper: StakingKeeper, json: JsonValue | undefined): Promise<ValidatorUpdate[]> {
  const state = parseStakingGenesis(json);
  keeper.setParams(ctx, state.params ?? defaultStakingParams());
  keeper.setAcceptAllValidators(ctx, acceptAllFromGenesis(json));
  keeper.setLastTotalPower(ctx, state.lastTotalPower.length === 0 ? 0n : BigInt(fromUtf8(state.lastTotalPower)));
  let bonded = 0n;
  let notBonded = 0n;
  for (const validator of state.validators) {
    keeper.setValidator(ctx, validator);
    keeper.setValidatorByConsAddr(ctx, validator);
    keeper.setValidatorByPowerIndex(ctx, validator);
    if (validator.status === BondStatus.BONDED) bonded += validatorTokens(validator);
    else if (validator.status === BondStatus.UNBONDING || validator.status === BondStatus.UNBONDED) notBonded += validatorTokens(validator);
    else throw new Error(`invalid validator status of ${validator.operatorAddress}`);
    if (validator.status === BondStatus.UNBONDING) keeper.insertValidatorQueue(ctx, validator);
  }
  for (const ubd of state.unbondingDelegations) {
    keeper.setUnbondingDelegation(ctx, ubd);
    for (const entry of ubd.entries) {
      keeper.insertUbdQueue(ctx, ubd, entry.completionTime === undefined ? 0 : timestampDate(entry.completionTime).getTime());
      notBonded += BigInt(entry.balance || '0');
    }
  }
  for (const red of state.redelegations) {
    keeper.setRedelegation(ctx, red);
    for (const entry of red.entries) keeper.insertRedelegationQueue(ctx, red, entry.completionTime === undefined ? 0 : timestampDate(entry.completionTime).getTime());
  }
  for (const delegation of state.delegations) {
    const delegator = parseAccAddress(delegation.delegatorAddress);
    const validator = parseValAddress(delegation.validatorAddress);
    if (!delegator.ok || !validator.ok) throw new Error(`invalid delegation ${delegation.delegatorAddress} → ${delegation.validatorAddress}`);
    keeper.setDelegation(ctx, delegation, delegator.bytes, validator.bytes);
  }
  // Create the pool accounts (bonded first, as the SDK does), then check their balances.
  keeper.accountKeeper.getModuleAccount(ctx, BONDED_POOL_NAME);
  keeper.accountKeeper.getModuleAccount(ctx, NOT_BONDED_POOL_NAME);
  await keeper.checkPools(ctx, bonded, notBonded);

  if (state.exported) {
    const updates: ValidatorUpdate[] = [];
    for (const last of state.lastValidatorPowers) {
      const parsed = parseValAddress(last.address);
      if (!parsed.ok) throw new Error(`invalid last validator power address ${last.address}`);
      keeper.setLastValidatorPower(ctx, parsed.bytes, last.power);
      const validator = keeper.getValidator(ctx, parsed.bytes);
      if (validator === undefined) throw new Error(`validator ${last.address} of last_validator_powers not found`);
      updates.push(abciValidatorUpdate(validator, last.power));
    }
    return updates;
  }
  return keeper.applyAndReturnValidatorSetUpdates(ctx);
}

export async function exportStakingGenesis(ctx: Context, keeper: StakingKeeper): Promise<JsonObject> {
  const lastValidatorPowers = (await keeper.getLastValidatorPowers(ctx)).map(([address, power]) => create(LastValidatorPowerSchema, { address: valString(address), power }));
  const validators = await keeper.getAllValidators(ctx);
  validators.forEach((validator) => operatorAddress(validator));
  const json = toGatewayJson(
    GenesisStateSchema,
    create(GenesisStateSchema, {
      params: keeper.getParams(ctx),
      lastTotalPower: utf8(keeper.getLastTotalPower(ctx).toString()),
      lastValidatorPowers,
      validators,
      delegations: await keeper.getAllDelegations(ctx),
      unbondingDelegations: await keeper.getAllUnbondingDelegations(ctx),
      redelegations: await keeper.getAllRedelegations(ctx),
      exported: true,
    }),
  ) as JsonObject;
  (json.params as JsonObject).accept_all_validators = keeper.acceptAllValidators(ctx);
  return json;
}
