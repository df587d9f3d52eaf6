/**
 * Genesis app_state helpers for the CLI and the node:
 *
 *   defaultAppState({ denom })             the `init` command's app_state
 *   validateAppState(appState, chainId?)   every problem, one line each ([] = valid); with a
 *                                          chain id also each gentx's signature
 *   addGenesisAccount(appState, addr, coins)   auth EthAccount + bank balance + supply
 *   addGenesisAccounts(appState, entries)      the same for many accounts at once
 *   genesisBalance(appState, addr, denom)
 *   collectGentxs(appState, gentxs, chainId?)  validates and stores app_state.genutil.gen_txs
 *   exportAppState(store, height?)         app_state of a committed height (validates, and starts
 *                                          a chain with identical balances)
 *   exportValidators(store, height?)       the bonded set for the exported genesis doc
 *   dryRunGenesis(appState, chainId)       InitChain on an in-memory store: the definitive check
 *
 * JSON follows the SDK genesis JSON (snake_case, gateway form). Helpers never mutate their input.
 */
import { create, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import { GenesisStateSchema as AuthGenesisSchema } from '../../gen/cosmos/auth/v1beta1/genesis_pb.js';
import { BalanceSchema, GenesisStateSchema as BankGenesisSchema } from '../../gen/cosmos/bank/v1beta1/genesis_pb.js';
import { MsgCreateValidatorSchema, type MsgCreateValidator } from '../../gen/cosmos/staking/v1beta1/tx_pb.js';
import { SignMode } from '../../gen/cosmos/tx/signing/v1beta1/signing_pb.js';
import { TokendError } from '../../util/errors.js';
import { defaultConsensusParams } from '../consensus/types/params.js';
import { toGatewayJson } from '../codec/index.js';
import type { ConsensusParams, ValidatorUpdate } from '../abci/types.js';
import { memoryDatabase } from '../store/db/database.js';
import { openCommitMultiStore, type CommitMultiStore } from '../store/index.js';
import { accountFromAny, accountToAny, newEthAccount, pubKeyAddress, type Account } from '../modules/auth/account.js';
import { parseAuthGenesis } from '../modules/auth/genesis.js';
import { parseBankGenesis } from '../modules/bank/genesis.js';
import { genTxsOf, parseGenTx, txRawBytes } from '../modules/genutil/genesis.js';
import { accString, valString } from '../modules/shared/address.js';
import { addCoins, amountOf, coinsError, coinsFromProto, coinsToProto, coinsToString, sortCoins, type Coin } from '../modules/shared/coins.js';
import { Context, emptyHeader } from '../modules/shared/context.js';
import { abciInfo } from '../modules/shared/errors.js';
import { bytesEqual } from '../modules/shared/keys.js';
import { parseStakingGenesis } from '../modules/staking/genesis.js';
import { defaultStakingParams } from '../modules/staking/params.js';
import { abciValidatorUpdate, consensusPower, operatorAddress, validatorConsAddress } from '../modules/staking/validator.js';
import { App } from './app.js';
import type { StakingKeeper } from '../modules/staking/keeper.js';
import { APP_STORE_NAMES, createModuleManager } from './modules.js';
import { asAppState, validateAppStateStatic, type AppStateJson } from './genesisState.js';
import { verifyWithPubKey } from './sigverify.js';
import { decodeTx, signDocBytes, type DecodedTx } from './tx.js';

export type { AppStateJson };
export { parseAppStateBytes } from './genesisState.js';

export interface DefaultAppStateOptions {
  /** Native denom: bond denom, fee denom and (for atto- denoms) its metadata. Default attotoken. */
  denom?: string;
}

/** The default app_state of every module. */
export function defaultAppState(options: DefaultAppStateOptions = {}): AppStateJson {
  const denom = options.denom ?? 'attotoken';
  return createModuleManager().defaultGenesis({ denom });
}

/**
 * Every problem of an app_state, each naming what is wrong ([] when valid). With `chainId`, each
 * gentx is also checked as InitChain will: signed by the account it delegates from (account
 * number 0, its genesis sequence, this chain id) and funded for fee + self-delegation.
 */
export function validateAppState(appState: unknown, chainId?: string): string[] {
  let state: AppStateJson;
  try {
    state = asAppState(appState);
  } catch (err) {
    return [(err as Error).message];
  }
  const problems = validateAppStateStatic(state);
  if (problems.length > 0) return problems;
  let gentxs: JsonValue[];
  try {
    gentxs = genTxsOf(state['genutil']);
  } catch (err) {
    return [`genutil: ${(err as Error).message}`];
  }
  gentxs.forEach((gentx, i) => {
    for (const problem of gentxProblems(state, gentx, chainId)) problems.push(`genutil: gentx ${i}: ${problem}`);
  });
  return problems;
}

interface GenesisIndex {
  accounts: Map<string, Account>;
  balances: Map<string, Coin[]>;
  bondDenom: string;
}

function indexGenesis(appState: AppStateJson): GenesisIndex {
  const accounts = new Map<string, Account>();
  for (const any of parseAuthGenesis(appState['auth']).accounts) {
    const account = accountFromAny(any);
    accounts.set(accString(account.address), account);
  }
  const balances = new Map<string, Coin[]>();
  for (const balance of parseBankGenesis(appState['bank']).balances) balances.set(balance.address, coinsFromProto(balance.coins));
  const bondDenom = (parseStakingGenesis(appState['staking']).params ?? defaultStakingParams()).bondDenom;
  return { accounts, balances, bondDenom };
}

/** Problems of one gentx against the genesis accounts and balances (signature if chainId). */
function gentxProblems(appState: AppStateJson, gentx: JsonValue, chainId: string | undefined): string[] {
  let tx: DecodedTx;
  try {
    tx = decodeTx(txRawBytes(parseGenTx(gentx)));
  } catch (err) {
    return [(err as Error).message];
  }
  if (tx.msgs.length !== 1 || tx.msgs[0]!.typeUrl !== `/${MsgCreateValidatorSchema.typeName}`) {
    return ['a genesis transaction must carry exactly one MsgCreateValidator'];
  }
  const msg = tx.msgs[0]!.message as MsgCreateValidator;
  const signer = tx.signers[0]!;
  const signerText = accString(signer);
  if (tx.signatures.length === 0 || tx.signatures.every((signature) => signature.length === 0)) return [`gentx of ${signerText} is not signed`];
  if (tx.signatures.length !== tx.signers.length || tx.signerInfos.length !== tx.signers.length) {
    return [`wrong number of signers; expected ${tx.signers.length}, got ${tx.signatures.length}`];
  }
  const index = indexGenesis(appState);
  const account = index.accounts.get(signerText);
  if (account === undefined) return [`account ${signerText} is not a genesis account; add it with add-genesis-account`];
  const problems: string[] = [];
  const info = tx.signerInfos[0]!;
  const pubKey = account.pubKey ?? info.pubKey;
  if (pubKey === undefined) problems.push(`gentx of ${signerText} carries no public key`);
  else {
    const derived = pubKeyAddress(pubKey);
    if (derived === undefined || !bytesEqual(derived, signer)) problems.push(`pubKey does not match signer address ${signerText} with signer index: 0`);
  }
  if (info.sequence !== account.sequence) problems.push(`account sequence mismatch, expected ${account.sequence}, got ${info.sequence}`);
  if (chainId !== undefined && pubKey !== undefined && problems.length === 0) {
    const signBytes = signDocBytes(tx.bodyBytes, tx.authInfoBytes, chainId, 0n);
    if (info.signMode !== SignMode.DIRECT || !verifyWithPubKey(pubKey, signBytes, tx.signatures[0]!)) {
      problems.push(`signature verification failed; please verify account number (0) and chain-id (${chainId}): (unable to verify single signer signature)`);
    }
  }
  const value = msg.value === undefined ? { denom: '', amount: 0n } : coinsFromProto([msg.value])[0]!;
  if (value.denom !== index.bondDenom) problems.push(`invalid coin denomination: got ${value.denom}, expected ${index.bondDenom}`);
  const balance = index.balances.get(signerText);
  if (balance === undefined) problems.push(`account ${signerText} balance not in genesis state`);
  else {
    const needed = value.amount + amountOf(tx.fee, value.denom);
    const held = amountOf(balance, value.denom);
    if (held < needed) problems.push(`insufficient fund for delegation ${signerText}: ${held}${value.denom} < ${needed}${value.denom}`);
  }
  return problems;
}

function moduleJson(appState: AppStateJson, name: string): JsonValue | undefined {
  return appState[name];
}

/**
 * Adds an EthAccount (next free account number) with `coins` and raises the supply. Throws
 * ALREADY_EXISTS for an address already in auth or bank genesis, INVALID_ARGUMENT for bad coins.
 */
export function addGenesisAccount(appState: Record<string, unknown>, address: Uint8Array, coins: readonly { denom: string; amount: bigint }[]): AppStateJson {
  return addGenesisAccounts(appState, [{ address, coins }]);
}

export interface GenesisAccountEntry {
  address: Uint8Array;
  coins: readonly { denom: string; amount: bigint }[];
}

/** `addGenesisAccount` for many accounts at once (one parse of the auth and bank genesis). */
export function addGenesisAccounts(appState: Record<string, unknown>, entries: readonly GenesisAccountEntry[]): AppStateJson {
  const state = asAppState(structuredClone(appState));
  const auth = parseAuthGenesis(moduleJson(state, 'auth'));
  const bank = parseBankGenesis(moduleJson(state, 'bank'));
  const taken = new Set<string>();
  let nextNumber = 0n;
  for (const any of auth.accounts) {
    const account = accountFromAny(any);
    taken.add(accString(account.address));
    if (account.accountNumber >= nextNumber) nextNumber = account.accountNumber + 1n;
  }
  const funded = new Set(bank.balances.map((balance) => balance.address));
  let supply = coinsFromProto(bank.supply);
  for (const entry of entries) {
    const bech32 = accString(entry.address);
    const sorted = sortCoins(entry.coins);
    const bad = sorted.length === 0 ? 'no coins given' : coinsError(sorted);
    if (bad !== undefined) throw new TokendError('INVALID_ARGUMENT', `invalid coins ${coinsToString(sorted)}: ${bad}`);
    if (taken.has(bech32)) {
      throw new TokendError('ALREADY_EXISTS', `cannot add account at existing address ${bech32}`, { hint: 'each address can be added to the genesis once' });
    }
    if (funded.has(bech32)) throw new TokendError('ALREADY_EXISTS', `cannot add account at existing address ${bech32}: it already has a genesis balance`);
    taken.add(bech32);
    funded.add(bech32);
    auth.accounts.push(accountToAny(newEthAccount(entry.address, nextNumber)));
    nextNumber++;
    bank.balances.push(create(BalanceSchema, { address: bech32, coins: coinsToProto(sorted) }));
    supply = addCoins(supply, sorted);
  }
  bank.supply = coinsToProto(supply);
  state['auth'] = toGatewayJson(AuthGenesisSchema, auth);
  state['bank'] = toGatewayJson(BankGenesisSchema, bank);
  return state;
}

/** The genesis balance of `address` in `denom` (0 when absent). */
export function genesisBalance(appState: Record<string, unknown>, address: Uint8Array, denom: string): bigint {
  const bech32 = accString(address);
  const entry = parseBankGenesis(moduleJson(asAppState(appState), 'bank')).balances.find((balance) => balance.address === bech32);
  return entry === undefined ? 0n : amountOf(coinsFromProto(entry.coins), denom);
}

/**
 * Puts `gentxs` (SDK tx JSON) into app_state.genutil.gen_txs after checking each against the
 * genesis accounts (funds, sequence, key; the signature too when `chainId` is given). Throws
 * INVALID_GENESIS naming every problem.
 */
export function collectGentxs(appState: Record<string, unknown>, gentxs: readonly unknown[], chainId?: string): AppStateJson {
  const state = asAppState(structuredClone(appState));
  const problems: string[] = [];
  gentxs.forEach((gentx, i) => {
    for (const problem of gentxProblems(state, gentx as JsonValue, chainId)) problems.push(`gentx ${i}: ${problem}`);
  });
  if (problems.length > 0) throw new TokendError('INVALID_GENESIS', `invalid gentx: ${problems.join('; ')}`, { meta: { problems } });
  const genutil = (state['genutil'] !== null && typeof state['genutil'] === 'object' && !Array.isArray(state['genutil']) ? state['genutil'] : {}) as JsonObject;
  state['genutil'] = { ...genutil, gen_txs: gentxs as JsonValue[] };
  return state;
}

/** A query-style context over `store` at `height` (default latest committed). */
function exportContext(store: CommitMultiStore, height?: number): Context {
  const version = height ?? store.latestVersion();
  if (version <= 0) throw new TokendError('NOT_FOUND', 'nothing to export: no height has been committed');
  return new Context({ mode: 'query', multiStore: store.branchAt(version), header: emptyHeader('', version) });
}

/** The app_state of a committed height, in genesis JSON. */
export async function exportAppState(store: CommitMultiStore, height?: number): Promise<AppStateJson> {
  const ctx = exportContext(store, height);
  return createModuleManager().exportGenesis(ctx);
}

export interface ExportedValidator {
  /** Consensus address, upper-case hex. */
  address: string;
  pubKeyType: 'ed25519' | 'secp256k1';
  pubKey: Uint8Array;
  power: bigint;
  name: string;
  operatorAddress: string;
}

/** The last bonded validator set at a height (for the exported genesis doc's validators). */
export async function exportValidators(store: CommitMultiStore, height?: number): Promise<ExportedValidator[]> {
  const ctx = exportContext(store, height);
  const stakingKeeper = createModuleManager().keeper<StakingKeeper>('staking');
  const result: ExportedValidator[] = [];
  for (const validator of await stakingKeeper.getLastValidators(ctx)) {
    const update = abciValidatorUpdate(validator);
    const consAddress = validatorConsAddress(validator);
    result.push({
      address: Buffer.from(consAddress).toString('hex').toUpperCase(),
      pubKeyType: update.pubKeyType,
      pubKey: update.pubKey,
      power: consensusPower(validator),
      name: validator.description?.moniker ?? '',
      operatorAddress: valString(operatorAddress(validator)),
    });
  }
  return result;
}

export interface DryRunResult {
  validators: ValidatorUpdate[];
  appHash: Uint8Array;
}

/**
 * Runs InitChain with `appState` on a throw-away in-memory store: the definitive genesis check
 * (gentxs go through the real finalize path). Throws the InitChain error.
 */
export async function dryRunGenesis(appState: Record<string, unknown>, chainId: string, options: { consensusParams?: ConsensusParams; time?: Date; initialHeight?: number } = {}): Promise<DryRunResult> {
  const store = await openCommitMultiStore(memoryDatabase(), { stores: APP_STORE_NAMES, syncCommits: false });
  const app = new App(store, { chainId, sigVerifyWorkers: 0 });
  try {
    const response = await app.initChain({
      time: options.time ?? new Date(0),
      chainId,
      consensusParams: options.consensusParams ?? defaultConsensusParams(),
      validators: [],
      appStateBytes: new TextEncoder().encode(JSON.stringify(appState)),
      initialHeight: options.initialHeight ?? 1,
    });
    return { validators: response.validators, appHash: response.appHash };
  } finally {
    await app.close();
    await store.close();
  }
}

/** The ABCI (code, log) of an error, for callers that print InitChain failures. */
export function describeError(err: unknown): string {
  return abciInfo(err).log;
}
