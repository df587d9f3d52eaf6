/**
 * app_state as JSON (the SDK's genesis JSON, one entry per module name) and its static checks:
 * every module's ValidateGenesis plus the cross-module rules InitChain would trip over (pool
 * balances versus validator tokens). Gentx signatures are checked in genesis.ts (they need the
 * chain id).
 */
import type { JsonValue } from '@bufbuild/protobuf';
import { BondStatus } from '../../gen/cosmos/staking/v1beta1/staking_pb.js';
import { TokendError } from '../../util/errors.js';
import { BONDED_POOL_NAME, NOT_BONDED_POOL_NAME } from '../modules/staking/keys.js';
import { parseBankGenesis } from '../modules/bank/genesis.js';
import { accString, moduleAddress } from '../modules/shared/address.js';
import { amountOf, coinsFromProto, coinsToString, type Coin } from '../modules/shared/coins.js';
import { parseStakingGenesis } from '../modules/staking/genesis.js';
import { defaultStakingParams } from '../modules/staking/params.js';
import { validatorTokens } from '../modules/staking/validator.js';
import type { ModuleManager } from '../platform/manager.js';
import { createModuleManager } from './modules.js';

/** app_state: module name → that module's genesis JSON. */
export type AppStateJson = Record<string, JsonValue>;

/** Parses InitChain's app_state bytes (empty → {}). */
export function parseAppStateBytes(bytes: Uint8Array): AppStateJson {
  const text = new TextDecoder().decode(bytes).trim();
  if (text === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new TokendError('INVALID_GENESIS', `app_state is not valid JSON: ${(err as Error).message}`);
  }
  return asAppState(parsed);
}

/** Checks the shape (a JSON object) and returns it typed. */
export function asAppState(value: unknown): AppStateJson {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new TokendError('INVALID_GENESIS', 'app_state must be a JSON object with one entry per module');
  }
  return value as AppStateJson;
}

/** Every module's ValidateGenesis ("<module>: <problem>") and the pool balance check. */
export function validateAppStateStatic(appState: AppStateJson, manager: ModuleManager = createModuleManager()): string[] {
  const problems = manager.validateGenesis(appState);
  if (problems.length === 0) problems.push(...poolProblems(appState));
  return problems;
}

/** Staking InitGenesis' rule: pool balances equal the validators' tokens by status (plus unbonding entries). */
function poolProblems(appState: AppStateJson): string[] {
  const staking = parseStakingGenesis(appState['staking']);
  const bank = parseBankGenesis(appState['bank']);
  const denom = (staking.params ?? defaultStakingParams()).bondDenom;
  let bonded = 0n;
  let notBonded = 0n;
  for (const validator of staking.validators) {
    if (validator.status === BondStatus.BONDED) bonded += validatorTokens(validator);
    else notBonded += validatorTokens(validator);
  }
  // Unbonding entries wait in the not-bonded pool.
  for (const ubd of staking.unbondingDelegations) for (const entry of ubd.entries) notBonded += BigInt(entry.balance || '0');
  const balanceOf = (name: string): Coin[] => {
    const address = accString(moduleAddress(name));
    const entry = bank.balances.find((balance) => balance.address === address);
    return entry === undefined ? [] : coinsFromProto(entry.coins);
  };
  const problems: string[] = [];
  const bondedBalance = balanceOf(BONDED_POOL_NAME);
  if (amountOf(bondedBalance, denom) !== bonded || bondedBalance.length > (bonded === 0n ? 0 : 1)) {
    problems.push(`staking: bonded pool balance is different from bonded coins: ${coinsToString(bondedBalance)} <-> ${bonded === 0n ? '' : `${bonded}${denom}`}`);
  }
  const notBondedBalance = balanceOf(NOT_BONDED_POOL_NAME);
  if (amountOf(notBondedBalance, denom) !== notBonded || notBondedBalance.length > (notBonded === 0n ? 0 : 1)) {
    problems.push(`staking: not bonded pool balance is different from not bonded coins: ${coinsToString(notBondedBalance)} <-> ${notBonded === 0n ? '' : `${notBonded}${denom}`}`);
  }
  return problems;
}
