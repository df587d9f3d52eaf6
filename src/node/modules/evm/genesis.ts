/**
 * x/evm genesis: `{ accounts: [{address, code, storage}], params }`. InitGenesis stores the params
 * and, for each genesis account, its code (the auth account must exist and gets the code hash)
 * and storage; ExportGenesis lists every account with code or storage.
 */
import { create, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import { bytesToHex, hexToBytes } from './hex.js';
import { StateSchema } from '../../../gen/ethermint/evm/v1/evm_pb.js';
import { GenesisAccountSchema, GenesisStateSchema, type GenesisState } from '../../../gen/ethermint/evm/v1/genesis_pb.js';
import { fromGatewayJson, toGatewayJson } from '../../codec/index.js';
import { keccak256 } from '../../../keyring/hash.js';
import type { Context } from '../shared/context.js';
import type { GenesisDefaults } from '../shared/module.js';
import type { EvmKeeper } from './keeper.js';
import { Code, EMPTY_CODE_HASH, Storage } from './keys.js';
import { defaultEvmParams, validateEvmParams } from './params.js';

export function defaultEvmGenesis(defaults: GenesisDefaults): JsonObject {
  return toGatewayJson(GenesisStateSchema, create(GenesisStateSchema, { accounts: [], params: defaultEvmParams(defaults.denom) })) as JsonObject;
}

function parse(json: JsonValue | undefined): GenesisState {
  return fromGatewayJson(GenesisStateSchema, json ?? {});
}

export function validateEvmGenesis(json: JsonValue | undefined): string[] {
  let state: GenesisState;
  try {
    state = parse(json);
  } catch (err) {
    return [`invalid evm genesis: ${(err as Error).message}`];
  }
  // A genesis written before the EVM existed has no evm entry: the defaults apply.
  const problems = state.params === undefined ? [] : validateEvmParams(state.params);
  const seen = new Set<string>();
  for (const account of state.accounts) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(account.address)) problems.push(`invalid genesis account address ${account.address}`);
    if (seen.has(account.address.toLowerCase())) problems.push(`duplicated genesis account ${account.address}`);
    seen.add(account.address.toLowerCase());
    if (!/^(0x)?([0-9a-fA-F]{2})*$/.test(account.code)) problems.push(`invalid code of genesis account ${account.address}`);
    for (const slot of account.storage) {
      if (!/^0x[0-9a-fA-F]{1,64}$/.test(slot.key) || !/^0x[0-9a-fA-F]{0,64}$/.test(slot.value)) problems.push(`invalid storage slot ${slot.key} of genesis account ${account.address}`);
    }
  }
  return problems;
}

function slot(hex: string): Uint8Array {
  return hexToBytes(`0x${hex.replace(/^0x/, '').padStart(64, '0')}`);
}

export async function initEvmGenesis(ctx: Context, keeper: EvmKeeper, json: JsonValue | undefined): Promise<void> {
  const state = parse(json);
  keeper.setParams(ctx, state.params ?? defaultEvmParams());
  for (const entry of state.accounts) {
    const address = hexToBytes(entry.address);
    const account = keeper.accounts.getAccount(ctx, address);
    if (account === undefined) throw new Error(`account not found for address ${entry.address}`);
    const code = hexToBytes(`0x${entry.code.replace(/^0x/, '')}`);
    if (code.length > 0) {
      const hash = keccak256(code);
      Code.set(ctx, hash, code);
      keeper.accounts.setAccount(ctx, { ...account, codeHash: bytesToHex(hash) });
    }
    for (const item of entry.storage) {
      const value = slot(item.value);
      let i = 0;
      while (i < value.length && value[i] === 0) i++;
      if (i < value.length) Storage.set(ctx, [address, slot(item.key)], value.subarray(i));
    }
  }
}

export async function exportEvmGenesis(ctx: Context, keeper: EvmKeeper): Promise<JsonObject> {
  const byAddress = new Map<string, { code: string; storage: { key: string; value: string }[] }>();
  const entry = (address: string) => {
    let e = byAddress.get(address);
    if (e === undefined) {
      e = { code: '', storage: [] };
      byAddress.set(address, e);
    }
    return e;
  };
  for await (const [[address, key], value] of Storage.iterate(ctx)) {
    const padded = new Uint8Array(32);
    padded.set(value, 32 - value.length);
    entry(bytesToHex(address)).storage.push({ key: bytesToHex(key), value: bytesToHex(padded) });
  }
  for await (const account of keeperAccounts(ctx, keeper)) {
    const code = keeper.code(ctx, account);
    if (code.length > 0) entry(bytesToHex(account)).code = bytesToHex(code);
  }
  const accounts = [...byAddress.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([address, e]) => create(GenesisAccountSchema, { address, code: e.code, storage: e.storage.map((s) => create(StateSchema, s)) }));
  return toGatewayJson(GenesisStateSchema, create(GenesisStateSchema, { accounts, params: keeper.getParams(ctx) })) as JsonObject;
}

/** Addresses of accounts whose code hash is not the empty one. */
async function* keeperAccounts(ctx: Context, keeper: EvmKeeper): AsyncIterableIterator<Uint8Array> {
  const iterate = (keeper.accounts as { iterateAccounts?: (ctx: Context) => AsyncIterableIterator<{ address: Uint8Array; codeHash: string }> }).iterateAccounts;
  if (iterate === undefined) return;
  for await (const account of iterate.call(keeper.accounts, ctx)) {
    if (account.codeHash !== '' && account.codeHash !== EMPTY_CODE_HASH) yield account.address;
  }
}
