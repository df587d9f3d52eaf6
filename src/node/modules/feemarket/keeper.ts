/**
 * The fee market keeper: EIP-1559's base fee, moved at every BeginBlock by how far the last
 * block's gas was from the target (max block gas / elasticity_multiplier), by at most
 * 1/base_fee_change_denominator, floored at min_gas_price (Ethermint CalculateBaseFee). The
 * last block's gas is max(gas wanted × min_gas_multiplier, gas used) over all its txs.
 */
import type { Context } from '../shared/context.js';
import { newEvent } from '../shared/events.js';
import { BlockGas, CurrentGas, Params } from './keys.js';
import { DEC_ONE, decAtto, defaultFeeMarketParams, type FeeMarketParams } from './params.js';

export class FeeMarketKeeper {
  getParams(ctx: Context): FeeMarketParams {
    return Params.get(ctx) ?? defaultFeeMarketParams();
  }

  setParams(ctx: Context, params: FeeMarketParams): void {
    Params.set(ctx, params);
  }

  /** The base fee in force (undefined when no_base_fee, or below enable_height). */
  getBaseFee(ctx: Context): bigint | undefined {
    const params = this.getParams(ctx);
    if (params.noBaseFee || BigInt(ctx.blockHeight) < params.enableHeight) return undefined;
    return params.baseFee === '' ? 0n : BigInt(params.baseFee);
  }

  getMinGasMultiplier(ctx: Context): { num: bigint; den: bigint } {
    return { num: decAtto(this.getParams(ctx).minGasMultiplier), den: DEC_ONE };
  }

  getMinGasPrice(ctx: Context): { num: bigint; den: bigint } {
    return { num: decAtto(this.getParams(ctx).minGasPrice), den: DEC_ONE };
  }

  getBlockGas(ctx: Context): bigint {
    return BlockGas.get(ctx) ?? 0n;
  }

  setBlockGas(ctx: Context, gas: bigint): void {
    BlockGas.set(ctx, gas);
  }

  /** Adds a tx's gas limit to the block's gas wanted (Ethermint's GasWantedDecorator), when the base fee is on. */
  addGasWanted(ctx: Context, gas: bigint): void {
    if (this.getBaseFee(ctx) === undefined) return;
    CurrentGas.set(ctx, (CurrentGas.get(ctx) ?? 0n) + gas);
  }

  /** The next base fee from the parent's (undefined = unchanged / none). */
  calculateBaseFee(ctx: Context): bigint | undefined {
    const params = this.getParams(ctx);
    if (params.noBaseFee) return undefined;
    const height = BigInt(ctx.blockHeight);
    if (height < params.enableHeight) return undefined;
    const parentBaseFee = params.baseFee === '' ? 0n : BigInt(params.baseFee);
    if (height === params.enableHeight) return parentBaseFee;
    // No block gas limit (-1) counts as 2^64 − 1, as in Ethermint: the base fee then decays.
    const maxGas = ctx.consensusParams?.block.maxGas ?? -1n;
    const limit = maxGas > -1n ? maxGas : (1n << 64n) - 1n;
    const target = limit / BigInt(params.elasticityMultiplier);
    if (target === 0n) return parentBaseFee;
    const used = this.getBlockGas(ctx);
    const denominator = BigInt(params.baseFeeChangeDenominator);
    let next = parentBaseFee;
    if (used > target) {
      let delta = (parentBaseFee * (used - target)) / target / denominator;
      if (delta < 1n) delta = 1n;
      next = parentBaseFee + delta;
    } else if (used < target) {
      const delta = (parentBaseFee * (target - used)) / target / denominator;
      next = parentBaseFee > delta ? parentBaseFee - delta : 0n;
    }
    const floor = (decAtto(params.minGasPrice) + DEC_ONE - 1n) / DEC_ONE;
    return next < floor ? floor : next;
  }

  beginBlock(ctx: Context): void {
    const next = this.calculateBaseFee(ctx);
    if (next === undefined) return;
    const params = this.getParams(ctx);
    if (params.baseFee !== next.toString()) this.setParams(ctx, { ...params, baseFee: next.toString() });
    ctx.events.emit(newEvent('fee_market', ['base_fee', next.toString()]));
  }

  /**
   * The block's gas for the next base fee (Ethermint v0.22): the gas its txs wanted, scaled by
   * min_gas_multiplier so that asking for much more than is used cannot push the base fee up for
   * free, but never less than the gas they used.
   */
  endBlock(ctx: Context): void {
    const wanted = CurrentGas.get(ctx) ?? 0n;
    CurrentGas.remove(ctx);
    const multiplier = this.getMinGasMultiplier(ctx);
    const limited = (wanted * multiplier.num) / multiplier.den;
    const gas = limited > ctx.blockGasUsed ? limited : ctx.blockGasUsed;
    this.setBlockGas(ctx, gas);
    ctx.events.emit(newEvent('block_gas', ['height', String(ctx.blockHeight)], ['amount', gas.toString()]));
  }
}
