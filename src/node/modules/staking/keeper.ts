/**
 * The staking keeper (x/staking/keeper, SDK 0.50) — as much as this chain needs now: validators
 * and their indexes, delegations, the bonded/not-bonded pools, the end-block validator-set
 * update and historical info. Unbonding delegations, redelegations, slashing and rewards hook in
 * later through the same tables (their queries already answer, empty).
 */
import { create } from '@bufbuild/protobuf';
import { timestampDate, timestampFromDate, timestampFromMs } from '@bufbuild/protobuf/wkt';
import { BondStatus, DelegationSchema, HistoricalInfoSchema, type Delegation, type HistoricalInfo, type Validator } from '../../../gen/cosmos/staking/v1beta1/staking_pb.js';
import { HeaderSchema } from '../../../gen/tendermint/types/types_pb.js';
import type { ValidatorUpdate } from '../../abci/types.js';
import { accString, valString } from '../shared/address.js';
import { coinsEqual, coinsToString, type Coin } from '../shared/coins.js';
import type { Context } from '../shared/context.js';
import { decToWire, decFromWire, type Dec } from '../shared/dec.js';
import { compareBytes } from '../shared/keys.js';
import { StakingErrors } from './errors.js';
import type { StakingAccountKeeper, StakingBankKeeper } from './expectedKeepers.js';
import {
  BONDED_POOL_NAME,
  NOT_BONDED_POOL_NAME,
  Delegations,
  HistoricalInfoByHeight,
  LastTotalPower,
  LastValidatorPower,
  Params,
  Validators,
  ValidatorsByConsAddr,
  ValidatorsByPower,
} from './keys.js';
import { defaultStakingParams, unbondingTimeMs, type StakingParams } from './params.js';
import {
  abciValidatorUpdate,
  addTokensFromDelegation,
  consensusPower,
  operatorAddress,
  potentialConsensusPower,
  validatorConsAddress,
  validatorTokens,
  withStatus,
} from './validator.js';

export class StakingKeeper {
  constructor(
    readonly accountKeeper: StakingAccountKeeper,
    readonly bankKeeper: StakingBankKeeper,
  ) {}

  // ------------------------------------------------------------------ params

  getParams(ctx: Context): StakingParams {
    return Params.get(ctx) ?? defaultStakingParams();
  }

  setParams(ctx: Context, params: StakingParams): void {
    Params.set(ctx, params);
  }

  bondDenom(ctx: Context): string {
    return this.getParams(ctx).bondDenom;
  }

  // ------------------------------------------------------------------ validators

  getValidator(ctx: Context, valAddr: Uint8Array): Validator | undefined {
    return Validators.get(ctx, valAddr);
  }

  setValidator(ctx: Context, validator: Validator): void {
    Validators.set(ctx, operatorAddress(validator), validator);
  }

  getValidatorByConsAddr(ctx: Context, consAddr: Uint8Array): Validator | undefined {
    const valAddr = ValidatorsByConsAddr.get(ctx, consAddr);
    return valAddr === undefined ? undefined : this.getValidator(ctx, valAddr);
  }

  setValidatorByConsAddr(ctx: Context, validator: Validator): void {
    ValidatorsByConsAddr.set(ctx, validatorConsAddress(validator), operatorAddress(validator));
  }

  /** Jailed validators are kept out of the power index (as in the SDK). */
  setValidatorByPowerIndex(ctx: Context, validator: Validator): void {
    if (validator.jailed) return;
    const address = operatorAddress(validator);
    ValidatorsByPower.set(ctx, [potentialConsensusPower(validator), address], address);
  }

  deleteValidatorByPowerIndex(ctx: Context, validator: Validator): void {
    ValidatorsByPower.remove(ctx, [potentialConsensusPower(validator), operatorAddress(validator)]);
  }

  async getAllValidators(ctx: Context): Promise<Validator[]> {
    const validators: Validator[] = [];
    for await (const validator of Validators.values(ctx)) validators.push(validator);
    return validators;
  }

  /** AddValidatorTokensAndShares: re-index by power around the token change. */
  addValidatorTokensAndShares(ctx: Context, validator: Validator, amount: bigint): { validator: Validator; issuedShares: Dec } {
    this.deleteValidatorByPowerIndex(ctx, validator);
    const result = addTokensFromDelegation(validator, amount);
    this.setValidator(ctx, result.validator);
    this.setValidatorByPowerIndex(ctx, result.validator);
    return result;
  }

  // ------------------------------------------------------------------ delegations

  getDelegation(ctx: Context, delAddr: Uint8Array, valAddr: Uint8Array): Delegation | undefined {
    return Delegations.get(ctx, [delAddr, valAddr]);
  }

  /** Stores the delegation; the collection keeps the by-validator index. */
  setDelegation(ctx: Context, delegation: Delegation, delAddr: Uint8Array, valAddr: Uint8Array): void {
    Delegations.set(ctx, [delAddr, valAddr], delegation);
  }

  async getAllDelegations(ctx: Context): Promise<Delegation[]> {
    const delegations: Delegation[] = [];
    for await (const delegation of Delegations.values(ctx)) delegations.push(delegation);
    return delegations;
  }

  /**
   * Delegate: moves `amount` bond-denom tokens from the delegator into the validator's pool
   * (bonded pool if the validator is bonded, else not-bonded) and issues shares.
   */
  delegate(ctx: Context, delAddr: Uint8Array, amount: bigint, validator: Validator): Dec {
    if (validatorTokens(validator) > 0n && (decFromWire(validator.delegatorShares) ?? 0n) === 0n) {
      throw StakingErrors.DelegatorShareExRateInvalid.error();
    }
    const valAddr = operatorAddress(validator);
    const existing = this.getDelegation(ctx, delAddr, valAddr);
    const pool = validator.status === BondStatus.BONDED ? BONDED_POOL_NAME : NOT_BONDED_POOL_NAME;
    this.bankKeeper.delegateCoinsFromAccountToModule(ctx, delAddr, pool, [{ denom: this.bondDenom(ctx), amount }]);
    const { issuedShares } = this.addValidatorTokensAndShares(ctx, validator, amount);
    const shares = (existing === undefined ? 0n : (decFromWire(existing.shares) ?? 0n)) + issuedShares;
    this.setDelegation(ctx, create(DelegationSchema, { delegatorAddress: accString(delAddr), validatorAddress: validator.operatorAddress, shares: decToWire(shares) }), delAddr, valAddr);
    return issuedShares;
  }

  // ------------------------------------------------------------------ last validator set

  getLastValidatorPower(ctx: Context, valAddr: Uint8Array): bigint | undefined {
    return LastValidatorPower.get(ctx, valAddr);
  }

  setLastValidatorPower(ctx: Context, valAddr: Uint8Array, power: bigint): void {
    LastValidatorPower.set(ctx, valAddr, power);
  }

  deleteLastValidatorPower(ctx: Context, valAddr: Uint8Array): void {
    LastValidatorPower.remove(ctx, valAddr);
  }

  /** (operator address, power) of the last bonded set, in address order. */
  async getLastValidatorPowers(ctx: Context): Promise<[Uint8Array, bigint][]> {
    const result: [Uint8Array, bigint][] = [];
    for await (const entry of LastValidatorPower.iterate(ctx)) result.push(entry);
    return result;
  }

  getLastTotalPower(ctx: Context): bigint {
    return LastTotalPower.get(ctx) ?? 0n;
  }

  setLastTotalPower(ctx: Context, power: bigint): void {
    LastTotalPower.set(ctx, power);
  }

  /** The bonded validators of the last set, sorted by power (desc) then address. */
  async getLastValidators(ctx: Context): Promise<Validator[]> {
    const maxValidators = this.getParams(ctx).maxValidators;
    const validators: Validator[] = [];
    for (const [address] of await this.getLastValidatorPowers(ctx)) {
      if (validators.length >= maxValidators) break;
      const validator = this.getValidator(ctx, address);
      if (validator !== undefined) validators.push(validator);
    }
    return validators;
  }

  /**
   * ApplyAndReturnValidatorSetUpdates: walk the power index from the highest power, bond the top
   * `max_validators` with non-zero power, report power changes, begin unbonding those that left
   * the set, and move the tokens between the pools in one transfer.
   */
  async applyAndReturnValidatorSetUpdates(ctx: Context): Promise<ValidatorUpdate[]> {
    const params = this.getParams(ctx);
    const last = new Map<string, bigint>();
    for (const [address, power] of await this.getLastValidatorPowers(ctx)) last.set(Buffer.from(address).toString('hex'), power);
    const updates: ValidatorUpdate[] = [];
    let totalPower = 0n;
    let notBondedToBonded = 0n;
    let bondedToNotBonded = 0n;
    let count = 0;

    const addresses: Uint8Array[] = [];
    for await (const address of ValidatorsByPower.values(ctx, { reverse: true })) {
      if (addresses.length >= params.maxValidators) break;
      addresses.push(address.slice());
    }
    for (const address of addresses) {
      if (count >= params.maxValidators) break;
      let validator = this.getValidator(ctx, address);
      if (validator === undefined) throw new Error(`validator ${valString(address)} is in the power index but not stored`);
      if (validator.jailed) throw new Error('should never retrieve a jailed validator from the power store');
      if (potentialConsensusPower(validator) === 0n) break;
      if (validator.status === BondStatus.UNBONDED || validator.status === BondStatus.UNBONDING) {
        validator = this.bondValidator(ctx, validator);
        notBondedToBonded += validatorTokens(validator);
      }
      const key = Buffer.from(address).toString('hex');
      const newPower = consensusPower(validator);
      if (last.get(key) !== newPower) {
        updates.push(abciValidatorUpdate(validator, newPower));
        this.setLastValidatorPower(ctx, address, newPower);
      }
      last.delete(key);
      count++;
      totalPower += newPower;
    }

    const noLongerBonded = [...last.keys()].map((hex) => Uint8Array.from(Buffer.from(hex, 'hex'))).sort(compareBytes);
    for (const address of noLongerBonded) {
      const validator = this.getValidator(ctx, address);
      if (validator === undefined) continue;
      const unbonding = this.beginUnbondingValidator(ctx, validator);
      bondedToNotBonded += validatorTokens(unbonding);
      this.deleteLastValidatorPower(ctx, address);
      updates.push(abciValidatorUpdate(unbonding, 0n));
    }

    const denom = params.bondDenom;
    if (notBondedToBonded > bondedToNotBonded) {
      this.bankKeeper.sendCoinsFromModuleToModule(ctx, NOT_BONDED_POOL_NAME, BONDED_POOL_NAME, [{ denom, amount: notBondedToBonded - bondedToNotBonded }]);
    } else if (notBondedToBonded < bondedToNotBonded) {
      this.bankKeeper.sendCoinsFromModuleToModule(ctx, BONDED_POOL_NAME, NOT_BONDED_POOL_NAME, [{ denom, amount: bondedToNotBonded - notBondedToBonded }]);
    }
    if (updates.length > 0) this.setLastTotalPower(ctx, totalPower);
    return updates;
  }

  private bondValidator(ctx: Context, validator: Validator): Validator {
    this.deleteValidatorByPowerIndex(ctx, validator);
    const bonded = withStatus(validator, BondStatus.BONDED);
    this.setValidator(ctx, bonded);
    this.setValidatorByPowerIndex(ctx, bonded);
    return bonded;
  }

  private beginUnbondingValidator(ctx: Context, validator: Validator): Validator {
    if (validator.status !== BondStatus.BONDED) throw new Error(`should not already be unbonded or unbonding, validator: ${validator.operatorAddress}`);
    this.deleteValidatorByPowerIndex(ctx, validator);
    const completion = ctx.blockTime.getTime() + unbondingTimeMs(this.getParams(ctx));
    const unbonding = withStatus(validator, BondStatus.UNBONDING, { unbondingHeight: BigInt(ctx.blockHeight), unbondingTime: timestampFromMs(completion) });
    this.setValidator(ctx, unbonding);
    this.setValidatorByPowerIndex(ctx, unbonding);
    return unbonding;
  }

  /** UnbondAllMatureValidators: unbonding validators whose time has come become unbonded. */
  async unbondMatureValidators(ctx: Context): Promise<void> {
    const now = ctx.blockTime.getTime();
    for (const validator of await this.getAllValidators(ctx)) {
      if (validator.status !== BondStatus.UNBONDING || validator.unbondingTime === undefined) continue;
      if (timestampDate(validator.unbondingTime).getTime() > now || Number(validator.unbondingHeight) > ctx.blockHeight) continue;
      const unbonded = withStatus(validator, BondStatus.UNBONDED);
      this.setValidator(ctx, unbonded);
    }
  }

  // ------------------------------------------------------------------ pools

  bondedPoolAddress(): Uint8Array {
    return this.accountKeeper.getModuleAddress(BONDED_POOL_NAME)!;
  }

  notBondedPoolAddress(): Uint8Array {
    return this.accountKeeper.getModuleAddress(NOT_BONDED_POOL_NAME)!;
  }

  /** Checks the pool balances equal the tokens of the validators by status (InitGenesis). */
  async checkPools(ctx: Context, bondedTokens: bigint, notBondedTokens: bigint): Promise<void> {
    const denom = this.bondDenom(ctx);
    const bondedCoins: Coin[] = bondedTokens === 0n ? [] : [{ denom, amount: bondedTokens }];
    const notBondedCoins: Coin[] = notBondedTokens === 0n ? [] : [{ denom, amount: notBondedTokens }];
    const bondedPool = this.accountKeeper.getModuleAccount(ctx, BONDED_POOL_NAME);
    if (bondedPool === undefined) throw new Error(`${BONDED_POOL_NAME} module account has not been set`);
    const bondedBalance = await this.bankKeeper.getAllBalances(ctx, bondedPool.address);
    if (!coinsEqual(bondedBalance, bondedCoins)) {
      throw new Error(`bonded pool balance is different from bonded coins: ${coinsToString(bondedBalance)} <-> ${coinsToString(bondedCoins)}`);
    }
    const notBondedPool = this.accountKeeper.getModuleAccount(ctx, NOT_BONDED_POOL_NAME);
    if (notBondedPool === undefined) throw new Error(`${NOT_BONDED_POOL_NAME} module account has not been set`);
    const notBondedBalance = await this.bankKeeper.getAllBalances(ctx, notBondedPool.address);
    if (!coinsEqual(notBondedBalance, notBondedCoins)) {
      throw new Error(`not bonded pool balance is different from not bonded coins: ${coinsToString(notBondedBalance)} <-> ${coinsToString(notBondedCoins)}`);
    }
  }

  // ------------------------------------------------------------------ historical info

  getHistoricalInfo(ctx: Context, height: bigint): HistoricalInfo | undefined {
    return HistoricalInfoByHeight.get(ctx, height);
  }

  /** TrackHistoricalInfo: prune entries older than historical_entries, store this block's. */
  async trackHistoricalInfo(ctx: Context): Promise<void> {
    const entries = BigInt(this.getParams(ctx).historicalEntries);
    for (let height = BigInt(ctx.blockHeight) - entries; height >= 0n; height--) {
      if (!HistoricalInfoByHeight.has(ctx, height)) break;
      HistoricalInfoByHeight.remove(ctx, height);
    }
    if (entries === 0n) return;
    const validators = (await this.getLastValidators(ctx)).sort((a, b) => {
      const byPower = consensusPower(b) - consensusPower(a);
      if (byPower !== 0n) return byPower > 0n ? 1 : -1;
      return compareBytes(operatorAddress(a), operatorAddress(b));
    });
    const header = create(HeaderSchema, {
      chainId: ctx.chainId,
      height: BigInt(ctx.blockHeight),
      time: timestampFromDate(ctx.blockTime),
      nextValidatorsHash: ctx.header.nextValidatorsHash,
      proposerAddress: ctx.header.proposerAddress,
    });
    HistoricalInfoByHeight.set(ctx, BigInt(ctx.blockHeight), create(HistoricalInfoSchema, { header, valset: validators }));
  }

  /** Heights with stored historical info (for tests/debug). */
  async historicalHeights(ctx: Context): Promise<bigint[]> {
    const heights: bigint[] = [];
    for await (const height of HistoricalInfoByHeight.keys(ctx)) heights.push(height);
    return heights;
  }
}
