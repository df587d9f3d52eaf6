/**
 * The mint keeper: params, and the BeginBlock that mints one block's inflation and pays it out
 * (inflation.ts has the rule): the mint module account mints, each additional allocation gets
 * its share, the fee collector gets the rest. Emits `mint{inflation, amount}` when it mints.
 */
import { parseAccAddress } from '../shared/address.js';
import type { Context } from '../shared/context.js';
import { decFromWire, decToString, type Dec } from '../shared/dec.js';
import { ATTRIBUTE_KEY_AMOUNT, newEvent } from '../shared/events.js';
import type { MintAccountKeeper, MintBankKeeper } from './expectedKeepers.js';
import { allocationShare, annualInflation, blockProvision, mintsAt } from './inflation.js';
import { FEE_COLLECTOR_NAME, MINT_MODULE_ACCOUNT, Params } from './keys.js';
import { defaultMintParams, inflationOf, type MintParams } from './params.js';

export const EVENT_TYPE_MINT = 'mint';
export const ATTRIBUTE_KEY_INFLATION = 'inflation';

/** What one block minted and where it went (for tests and the bench). */
export interface BlockMint {
  minted: bigint;
  allocations: { address: Uint8Array; amount: bigint }[];
  feeCollector: bigint;
}

export class MintKeeper {
  constructor(
    private readonly accountKeeper: MintAccountKeeper,
    private readonly bankKeeper: MintBankKeeper,
    /** Default mint denom when no params are stored (only before InitGenesis). */
    private readonly fallbackDenom = 'attotoken',
  ) {}

  getParams(ctx: Context): MintParams {
    return Params.get(ctx) ?? defaultMintParams(this.fallbackDenom);
  }

  setParams(ctx: Context, params: MintParams): void {
    Params.set(ctx, params);
  }

  /** The module account exists from genesis on (x/mint InitGenesis does the same). */
  ensureModuleAccount(ctx: Context): void {
    if (this.accountKeeper.getModuleAccount(ctx, MINT_MODULE_ACCOUNT) === undefined) throw new Error(`module account ${MINT_MODULE_ACCOUNT} is not registered`);
  }

  /** The per-block rate in force at the context's height: the parameter from start_height on, else 0. */
  currentInflation(ctx: Context): Dec {
    const params = this.getParams(ctx);
    return mintsAt(ctx.blockHeight, params.startHeight) ? inflationOf(params) : 0n;
  }

  /** The annual inflation the current per-block rate compounds to. */
  currentAnnualInflation(ctx: Context): Dec {
    return annualInflation(this.currentInflation(ctx), this.getParams(ctx).blocksPerYear);
  }

  /** BeginBlock: mint this block's provision and pay it out. */
  beginBlock(ctx: Context): BlockMint | undefined {
    const params = this.getParams(ctx);
    if (!mintsAt(ctx.header.height, params.startHeight)) return undefined;
    const inflation = inflationOf(params);
    const denom = params.mintDenom;
    const minted = blockProvision(inflation, this.bankKeeper.getSupply(ctx, denom));
    if (minted === 0n) return undefined;
    this.bankKeeper.mintCoins(ctx, MINT_MODULE_ACCOUNT, [{ denom, amount: minted }]);
    let rest = minted;
    const allocations: BlockMint['allocations'] = [];
    for (const allocation of params.additionalAllocations) {
      const amount = allocationShare(decFromWire(allocation.rate) ?? 0n, minted);
      if (amount === 0n) continue;
      const parsed = parseAccAddress(allocation.address);
      if (!parsed.ok) throw new Error(`mint allocation address ${allocation.address}: ${parsed.error}`);
      this.bankKeeper.sendCoinsFromModuleToAccount(ctx, MINT_MODULE_ACCOUNT, parsed.bytes, [{ denom, amount }]);
      allocations.push({ address: parsed.bytes, amount });
      rest -= amount;
    }
    if (rest > 0n) this.bankKeeper.sendCoinsFromModuleToModule(ctx, MINT_MODULE_ACCOUNT, FEE_COLLECTOR_NAME, [{ denom, amount: rest }]);
    ctx.events.emit(newEvent(EVENT_TYPE_MINT, [ATTRIBUTE_KEY_INFLATION, decToString(inflation)], [ATTRIBUTE_KEY_AMOUNT, minted.toString()]));
    return { minted, allocations, feeCollector: rest };
  }
}
