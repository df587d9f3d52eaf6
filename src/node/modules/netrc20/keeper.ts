/**
 * The converter's keeper (Evmos x/erc20 behaviour, module "aiozrc20"): token pairs and their two
 * indexes, params, the converter address, registration (module-owned tokens deployed from the
 * module address, external tokens with a coin made for them), conversions in both directions
 * with balance checks, and the EVM hook that turns an ERC-20 Transfer to the module address back
 * into coins.
 *
 * Module-owned pair (a native coin): coin → ERC-20 escrows the coins in the module account and
 * mints the tokens; ERC-20 → coin burns the tokens and releases the escrowed coins.
 * External pair (an existing ERC-20): ERC-20 → coin moves the tokens to the module address
 * (escrow) and mints coins; coin → ERC-20 burns the coins and transfers the escrowed tokens.
 */
import { create } from '@bufbuild/protobuf';
import { Owner, TokenPairSchema, type TokenPair } from '../../../gen/aioz/aiozrc20/v1/aiozrc20_pb.js';
import { ParamsSchema, type Params as Aiozrc20Params } from '../../../gen/aioz/aiozrc20/v1/genesis_pb.js';
import { DenomUnitSchema, MetadataSchema, type Metadata } from '../../../gen/cosmos/bank/v1beta1/bank_pb.js';
import type { Log } from '../../../gen/ethermint/evm/v1/evm_pb.js';
import { sha256 } from '../../../keyring/hash.js';
import { moduleAddress, accString } from '../shared/address.js';
import type { Context } from '../shared/context.js';
import { SdkErrors } from '../shared/errors.js';
import { newEvent } from '../shared/events.js';
import { Aiozrc20Errors } from './errors.js';
import { TRANSFER_TOPIC, erc20Interface, hexBytes, moduleTokenCreation, toHex } from './erc20.js';
import type { Aiozrc20AccountKeeper, Aiozrc20BankKeeper, Aiozrc20EvmKeeper } from './expectedKeepers.js';
import { ConverterAddress, MODULE_NAME, Params, TokenPairByDenom, TokenPairByErc20, TokenPairs } from './keys.js';

export const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** keccak256("Approval(address,address,uint256)"). */
const APPROVAL_TOPIC = '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925';

export function defaultAiozrc20Params(): Aiozrc20Params {
  return create(ParamsSchema, { enabled: true, evmHookEnabled: true });
}

/** A pair's id: sha256(erc20 address ‖ "|" ‖ denom). */
export function tokenPairId(pair: { aiozrc20Address: string; denom: string }): Uint8Array {
  return sha256(new TextEncoder().encode(`${pair.aiozrc20Address}|${pair.denom}`));
}

export class Aiozrc20Keeper {
  readonly moduleAddress = moduleAddress(MODULE_NAME);

  constructor(
    readonly accounts: Aiozrc20AccountKeeper,
    readonly bank: Aiozrc20BankKeeper,
    readonly evm: Aiozrc20EvmKeeper,
  ) {}

  // ------------------------------------------------------------------------------ state

  getParams(ctx: Context): Aiozrc20Params {
    return Params.get(ctx) ?? defaultAiozrc20Params();
  }

  setParams(ctx: Context, params: Aiozrc20Params): void {
    Params.set(ctx, params);
  }

  /** The converter address: the one a proposal set, else the module address (0x checksummed). */
  async converterAddress(ctx: Context): Promise<string> {
    const set = ConverterAddress.get(ctx);
    if (set !== undefined && set !== '') return set;
    const { ethers } = await erc20Interface();
    return ethers.getAddress(toHex(this.moduleAddress));
  }

  setConverterAddress(ctx: Context, address: string): void {
    ConverterAddress.set(ctx, address);
  }

  getPair(ctx: Context, token: string): TokenPair | undefined {
    const id = HEX_ADDRESS.test(token) ? TokenPairByErc20.get(ctx, hexBytes(token)) : TokenPairByDenom.get(ctx, token);
    return id === undefined ? undefined : TokenPairs.get(ctx, id);
  }

  setPair(ctx: Context, pair: TokenPair): void {
    const id = tokenPairId(pair);
    TokenPairs.set(ctx, id, pair);
    TokenPairByErc20.set(ctx, hexBytes(pair.aiozrc20Address), id);
    TokenPairByDenom.set(ctx, pair.denom, id);
  }

  removePair(ctx: Context, pair: TokenPair): void {
    TokenPairs.remove(ctx, tokenPairId(pair));
    TokenPairByErc20.remove(ctx, hexBytes(pair.aiozrc20Address));
    TokenPairByDenom.remove(ctx, pair.denom);
  }

  async allPairs(ctx: Context): Promise<TokenPair[]> {
    const out: TokenPair[] = [];
    for await (const pair of TokenPairs.values(ctx)) out.push(pair);
    return out;
  }

  // ---------------------------------------------------------------------------- EVM calls

  /** Calls `fn` on `contract` from `from`; a revert is the module's EVM-call error with its reason. */
  async callErc20(ctx: Context, from: Uint8Array, contract: string, fn: string, args: readonly unknown[]): Promise<{ result: unknown[]; logs: readonly Log[] }> {
    const { iface } = await erc20Interface();
    const data = hexBytes(iface.encodeFunctionData(fn, args));
    const out = await this.evm.moduleCall(ctx, from, hexBytes(contract), data);
    if (out.vmError !== '') {
      let reason = '';
      try {
        const parsed = iface.parseError(toHex(out.ret));
        if (parsed !== null) reason = `: ${String(parsed.args[0])}`;
      } catch {
        reason = '';
      }
      throw Aiozrc20Errors.EvmCall.wrap(`${fn} on ${contract} failed: ${out.vmError}${reason}`);
    }
    let result: unknown[];
    try {
      result = [...iface.decodeFunctionResult(fn, out.ret)];
    } catch (err) {
      throw Aiozrc20Errors.AbiUnpack.wrap(`${fn} on ${contract}: ${(err as Error).message}`);
    }
    return { result, logs: out.logs };
  }

  async balanceOf(ctx: Context, contract: string, account: Uint8Array): Promise<bigint> {
    const { result } = await this.callErc20(ctx, this.moduleAddress, contract, 'balanceOf', [toHex(account)]);
    return result[0] as bigint;
  }

  async totalSupply(ctx: Context, contract: string): Promise<bigint> {
    const { result } = await this.callErc20(ctx, this.moduleAddress, contract, 'totalSupply', []);
    return result[0] as bigint;
  }

  // --------------------------------------------------------------------------- proposals

  /** RegisterCoinProposal: deploys the module-owned token for a coin with a supply. */
  async registerCoin(ctx: Context, metadata: Metadata): Promise<TokenPair> {
    const params = this.getParams(ctx);
    if (!params.enabled) throw Aiozrc20Errors.Disabled.wrap('registration is currently disabled by governance');
    const problem = metadataProblem(metadata);
    if (problem !== undefined) throw SdkErrors.InvalidRequest.wrap(problem);
    if (metadata.base === this.evm.getParams(ctx).evmDenom) throw Aiozrc20Errors.EvmDenom.wrap(`cannot register the EVM denomination ${metadata.base}`);
    if (this.getPair(ctx, metadata.base) !== undefined) throw Aiozrc20Errors.TokenPairAlreadyExists.wrap(`coin denomination already registered: ${metadata.base}`);
    if (this.bank.getSupply(ctx, metadata.base) === 0n) throw SdkErrors.InvalidCoins.wrap(`base denomination '${metadata.base}' cannot have a supply of 0`);
    const existing = this.bank.getDenomMetadata(ctx, metadata.base);
    if (existing === undefined) this.bank.setDenomMetadata(ctx, metadata);
    const display = metadata.denomUnits.find((unit) => unit.denom === metadata.display);
    const decimals = display?.exponent ?? 0;
    if (decimals > 255) throw SdkErrors.InvalidRequest.wrap(`display exponent ${decimals} does not fit in uint8`);
    this.accounts.getModuleAccount(ctx, MODULE_NAME);
    const creation = await moduleTokenCreation(metadata.name || metadata.display, metadata.symbol || metadata.display, decimals);
    const out = await this.evm.moduleCall(ctx, this.moduleAddress, undefined, creation);
    if (out.vmError !== '' || out.contractAddress === undefined) throw Aiozrc20Errors.EvmCall.wrap(`failed to deploy the token contract: ${out.vmError}`);
    const { ethers } = await erc20Interface();
    const pair = create(TokenPairSchema, { aiozrc20Address: ethers.getAddress(out.contractAddress), denom: metadata.base, enabled: true, contractOwner: Owner.MODULE });
    this.setPair(ctx, pair);
    ctx.events.emit(newEvent('register_coin', ['cosmos_coin', pair.denom], ['erc20_token', pair.aiozrc20Address]));
    return pair;
  }

  /** RegisterAIOZRC20Proposal: an existing ERC-20 gets a coin "aiozrc20/0x…" and its metadata. */
  async registerErc20(ctx: Context, address: string): Promise<TokenPair> {
    const params = this.getParams(ctx);
    if (!params.enabled) throw Aiozrc20Errors.Disabled.wrap('registration is currently disabled by governance');
    if (!HEX_ADDRESS.test(address)) throw SdkErrors.InvalidAddress.wrap(`invalid ERC20 contract address ${address}`);
    const { ethers } = await erc20Interface();
    const contract = ethers.getAddress(address);
    if (this.getPair(ctx, contract) !== undefined) throw Aiozrc20Errors.TokenPairAlreadyExists.wrap(`token ERC20 contract already registered: ${contract}`);
    const denom = `${MODULE_NAME}/${contract}`;
    if (this.bank.getDenomMetadata(ctx, denom) !== undefined) throw Aiozrc20Errors.InternalTokenPair.wrap(`denom metadata already registered ${denom}`);
    const name = (await this.callErc20(ctx, this.moduleAddress, contract, 'name', [])).result[0] as string;
    const symbol = (await this.callErc20(ctx, this.moduleAddress, contract, 'symbol', [])).result[0] as string;
    const decimals = Number((await this.callErc20(ctx, this.moduleAddress, contract, 'decimals', [])).result[0] as bigint);
    const display = name.toLowerCase().replace(/[^a-z0-9]/g, '') || denom;
    const units = [create(DenomUnitSchema, { denom, exponent: 0 })];
    if (decimals > 0) units.push(create(DenomUnitSchema, { denom: display, exponent: decimals }));
    this.bank.setDenomMetadata(
      ctx,
      create(MetadataSchema, { description: `Cosmos coin token representation of ${contract}`, base: denom, display: decimals > 0 ? display : denom, name, symbol, denomUnits: units }),
    );
    const pair = create(TokenPairSchema, { aiozrc20Address: contract, denom, enabled: true, contractOwner: Owner.EXTERNAL });
    this.setPair(ctx, pair);
    ctx.events.emit(newEvent('register_erc20', ['cosmos_coin', pair.denom], ['erc20_token', pair.aiozrc20Address]));
    return pair;
  }

  /** ToggleTokenPairConversionProposal. */
  toggle(ctx: Context, token: string): TokenPair {
    const pair = this.requirePair(ctx, token);
    const next = create(TokenPairSchema, { ...pair, enabled: !pair.enabled });
    this.setPair(ctx, next);
    ctx.events.emit(newEvent('toggle_token_conversion', ['cosmos_coin', next.denom], ['erc20_token', next.aiozrc20Address]));
    return next;
  }

  /** UpdateTokenPairProposal: an external pair's ERC-20 address changes (its denom stays). */
  async updatePair(ctx: Context, current: string, next: string): Promise<TokenPair> {
    if (!HEX_ADDRESS.test(current)) throw SdkErrors.InvalidAddress.wrap(`invalid ERC20 contract address ${current}`);
    if (!HEX_ADDRESS.test(next)) throw SdkErrors.InvalidAddress.wrap(`invalid new ERC20 contract address ${next}`);
    const pair = this.requirePair(ctx, current);
    if (pair.contractOwner !== Owner.EXTERNAL) throw Aiozrc20Errors.UndefinedOwner.wrap(`only an external token pair can change its contract, ${pair.aiozrc20Address} is module-owned`);
    const { ethers } = await erc20Interface();
    const address = ethers.getAddress(next);
    if (this.getPair(ctx, address) !== undefined) throw Aiozrc20Errors.TokenPairAlreadyExists.wrap(`token ERC20 contract already registered: ${address}`);
    this.removePair(ctx, pair);
    const updated = create(TokenPairSchema, { ...pair, aiozrc20Address: address });
    this.setPair(ctx, updated);
    ctx.events.emit(newEvent('update_token_pair_erc20', ['erc20_address', pair.aiozrc20Address], ['new_erc20_address', address]));
    return updated;
  }

  /** SetConverterAddressProposal: empty resets to the default (the module address). */
  async setConverter(ctx: Context, address: string): Promise<void> {
    if (address !== '' && !HEX_ADDRESS.test(address)) throw SdkErrors.InvalidAddress.wrap(`invalid converter address ${address}`);
    const { ethers } = await erc20Interface();
    this.setConverterAddress(ctx, address === '' ? '' : ethers.getAddress(address));
  }

  requirePair(ctx: Context, token: string): TokenPair {
    const pair = this.getPair(ctx, token);
    if (pair === undefined) throw Aiozrc20Errors.TokenPairNotFound.wrap(`token '${token}' not registered`);
    return pair;
  }

  // --------------------------------------------------------------------------- conversions

  private enabledPair(ctx: Context, token: string): TokenPair {
    if (!this.getParams(ctx).enabled) throw Aiozrc20Errors.Disabled.wrap('module is disabled by governance');
    const pair = this.getPair(ctx, token);
    if (pair === undefined) throw Aiozrc20Errors.TokenPairNotFound.wrap(`token '${token}' not registered`);
    if (!pair.enabled) throw Aiozrc20Errors.TokenPairDisabled.wrap(`minting token '${token}' is not enabled by governance`);
    return pair;
  }

  /** MsgConvertCoin: `amount` of `denom` from `sender` (coins) to `receiver` (ERC-20). */
  async convertCoin(ctx: Context, sender: Uint8Array, receiver: Uint8Array, denom: string, amount: bigint): Promise<void> {
    const pair = this.enabledPair(ctx, denom);
    if (this.bank.blockedAddr(receiver)) throw SdkErrors.Unauthorized.wrap(`${toHex(receiver)} is not allowed to receive transactions`);
    const coins = [{ denom, amount }];
    const contract = pair.aiozrc20Address;
    const before = await this.balanceOf(ctx, contract, receiver);
    // The balance check: the bank refuses to move more than the sender's spendable coins.
    this.bank.sendCoinsFromAccountToModule(ctx, sender, MODULE_NAME, coins);
    if (pair.contractOwner === Owner.MODULE) {
      await this.callErc20(ctx, this.moduleAddress, contract, 'mint', [toHex(receiver), amount]);
    } else if (pair.contractOwner === Owner.EXTERNAL) {
      const { logs } = await this.callErc20(ctx, this.moduleAddress, contract, 'transfer', [toHex(receiver), amount]);
      if (logs.some((log) => log.topics[0] === APPROVAL_TOPIC)) throw Aiozrc20Errors.UnexpectedEvent.wrap('unexpected Approval event');
      this.bank.burnCoins(ctx, MODULE_NAME, coins);
    } else {
      throw Aiozrc20Errors.UndefinedOwner.wrap(`token pair ${contract} has no owner`);
    }
    const after = await this.balanceOf(ctx, contract, receiver);
    if (after - before !== amount) throw Aiozrc20Errors.BalanceInvariance.wrap(`invalid token balance - expected: ${before + amount}, actual: ${after}`);
    ctx.events.emit(newEvent('convert_coin', ['sender', accString(sender)], ['receiver', toHex(receiver)], ['amount', amount.toString()], ['cosmos_coin', denom], ['erc20_token', contract]));
  }

  /** MsgConvertAIOZRC20: `amount` tokens of `contract` from `sender` (ERC-20) to `receiver` (coins). */
  async convertErc20(ctx: Context, sender: Uint8Array, receiver: Uint8Array, contract: string, amount: bigint): Promise<void> {
    const pair = this.enabledPair(ctx, contract);
    if (this.bank.blockedAddr(receiver)) throw SdkErrors.Unauthorized.wrap(`${accString(receiver)} is not allowed to receive transactions`);
    const before = await this.balanceOf(ctx, pair.aiozrc20Address, sender);
    if (before < amount) throw SdkErrors.InsufficientFunds.wrap(`token balance ${before} of ${pair.aiozrc20Address} is smaller than ${amount}`);
    await this.tokensToCoins(ctx, pair, sender, receiver, amount, true);
    const after = await this.balanceOf(ctx, pair.aiozrc20Address, sender);
    if (before - after !== amount) throw Aiozrc20Errors.BalanceInvariance.wrap(`invalid token balance - expected: ${before - amount}, actual: ${after}`);
    ctx.events.emit(newEvent('convert_erc20', ['sender', toHex(sender)], ['receiver', accString(receiver)], ['amount', amount.toString()], ['cosmos_coin', pair.denom], ['erc20_token', pair.aiozrc20Address]));
  }

  /**
   * Tokens held by `holder` (or, from the hook, already at the module address) become coins of
   * `receiver`: module-owned tokens are burnt and escrowed coins released; external tokens are
   * escrowed at the module address and coins minted.
   */
  private async tokensToCoins(ctx: Context, pair: TokenPair, holder: Uint8Array, receiver: Uint8Array, amount: bigint, moveTokens: boolean): Promise<void> {
    const coins = [{ denom: pair.denom, amount }];
    if (pair.contractOwner === Owner.MODULE) {
      await this.callErc20(ctx, this.moduleAddress, pair.aiozrc20Address, 'burnCoins', [toHex(moveTokens ? holder : this.moduleAddress), amount]);
      this.bank.sendCoinsFromModuleToAccount(ctx, MODULE_NAME, receiver, coins);
    } else if (pair.contractOwner === Owner.EXTERNAL) {
      if (moveTokens) await this.callErc20(ctx, holder, pair.aiozrc20Address, 'transfer', [toHex(this.moduleAddress), amount]);
      this.bank.mintCoins(ctx, MODULE_NAME, coins);
      this.bank.sendCoinsFromModuleToAccount(ctx, MODULE_NAME, receiver, coins);
    } else {
      throw Aiozrc20Errors.UndefinedOwner.wrap(`token pair ${pair.aiozrc20Address} has no owner`);
    }
  }

  /**
   * The EVM hook: each ERC-20 Transfer log of a registered, enabled pair whose recipient is the
   * module address converts to coins for the log's `from` (when evm_hook_enabled).
   */
  async postTxProcessing(ctx: Context, logs: readonly Log[]): Promise<void> {
    const params = this.getParams(ctx);
    if (!params.enabled || !params.evmHookEnabled) return;
    const module = toHex(this.moduleAddress).toLowerCase();
    for (const log of logs) {
      if (log.topics.length !== 3 || log.topics[0] !== TRANSFER_TOPIC) continue;
      const to = `0x${log.topics[2]!.slice(26)}`.toLowerCase();
      if (to !== module) continue;
      const pair = this.getPair(ctx, log.address);
      if (pair === undefined || !pair.enabled) continue;
      const amount = BigInt(toHex(log.data) === '0x' ? 0 : toHex(log.data));
      if (amount === 0n) continue;
      const from = hexBytes(log.topics[1]!.slice(26));
      await this.tokensToCoins(ctx, pair, from, from, amount, false);
      ctx.events.emit(newEvent('convert_erc20', ['sender', toHex(from)], ['receiver', accString(from)], ['amount', amount.toString()], ['cosmos_coin', pair.denom], ['erc20_token', pair.aiozrc20Address]));
    }
  }
}

/** Bank metadata a coin registration needs (x/bank Metadata.Validate, briefly). */
export function metadataProblem(metadata: Metadata): string | undefined {
  if (metadata.base === '') return 'metadata base denomination cannot be blank';
  if (metadata.display === '') return 'metadata display denomination cannot be blank';
  const base = metadata.denomUnits[0];
  if (base === undefined || base.denom !== metadata.base || base.exponent !== 0) return `the first denomination unit must be the base denomination ${metadata.base} with exponent 0`;
  if (!metadata.denomUnits.some((unit) => unit.denom === metadata.display)) return `metadata must contain a denomination unit with display denom '${metadata.display}'`;
  for (let i = 1; i < metadata.denomUnits.length; i++) {
    if (metadata.denomUnits[i]!.exponent <= metadata.denomUnits[i - 1]!.exponent) return 'the denomination units must be sorted by ascending exponent';
  }
  return undefined;
}
