/** The EIP-1559 base fee as Ethermint's CalculateBaseFee moves it. */
import { create } from '@bufbuild/protobuf';
import { FeeMarketKeeper } from '../../../../src/node/modules/feemarket/keeper.js';
import { defaultFeeMarketParams, validateFeeMarketParams } from '../../../../src/node/modules/feemarket/params.js';
import { Context } from '../../../../src/node/modules/shared/context.js';
import { ParamsSchema } from '../../../../src/gen/ethermint/feemarket/v1/feemarket_pb.js';
import { openCommitMultiStore } from '../../../../src/node/store/commitmulti.js';
import { memoryDatabase } from '../../../../src/node/store/db/database.js';
import { feemarketStoreKey } from '../../../../src/node/modules/feemarket/keys.js';

async function ctxAt(height: number, maxGas: bigint): Promise<Context> {
  const store = await openCommitMultiStore(memoryDatabase(), { stores: [feemarketStoreKey.name] });
  return new Context({
    mode: 'block',
    multiStore: store.branch(),
    header: { height, time: new Date(0), chainId: 'c_1-1', proposerAddress: new Uint8Array(0), hash: new Uint8Array(0), nextValidatorsHash: new Uint8Array(0) },
    consensusParams: { block: { maxBytes: 1n, maxGas } } as never,
  });
}

describe('fee market', () => {
  const keeper = new FeeMarketKeeper();

  test('above target the base fee rises by used−target over target / 8; below it falls; at it stays', async () => {
    const ctx = await ctxAt(10, 10_000_000n); // target 5,000,000
    keeper.setParams(ctx, defaultFeeMarketParams());
    keeper.setBlockGas(ctx, 10_000_000n);
    expect(keeper.calculateBaseFee(ctx)).toBe(1_125_000_000n);
    keeper.setBlockGas(ctx, 0n);
    expect(keeper.calculateBaseFee(ctx)).toBe(875_000_000n);
    keeper.setBlockGas(ctx, 5_000_000n);
    expect(keeper.calculateBaseFee(ctx)).toBe(1_000_000_000n);
  });

  test('no_base_fee has none; the floor is min_gas_price; enable_height uses the initial fee', async () => {
    const ctx = await ctxAt(10, 10_000_000n);
    keeper.setParams(ctx, { ...defaultFeeMarketParams(), noBaseFee: true });
    expect(keeper.getBaseFee(ctx)).toBeUndefined();
    expect(keeper.calculateBaseFee(ctx)).toBeUndefined();
    keeper.setParams(ctx, { ...defaultFeeMarketParams(), minGasPrice: (990_000_000n * 10n ** 18n).toString() });
    keeper.setBlockGas(ctx, 0n);
    expect(keeper.calculateBaseFee(ctx)).toBe(990_000_000n);
    keeper.setParams(ctx, { ...defaultFeeMarketParams(), enableHeight: 10n });
    expect(keeper.calculateBaseFee(ctx)).toBe(1_000_000_000n);
  });

  test('the block gas: gas wanted × min_gas_multiplier, but never less than the gas used; a block_gas event', async () => {
    const ctx = await ctxAt(10, 10_000_000n);
    keeper.setParams(ctx, defaultFeeMarketParams()); // min_gas_multiplier 0.5
    keeper.beginBlock(ctx);
    keeper.addGasWanted(ctx, 100_000n);
    keeper.addGasWanted(ctx, 200_000n);
    // Wanted 300,000 → 150,000 after the multiplier; the txs used 90,000.
    keeper.endBlock(ctx.with({ blockGasUsed: 90_000n }));
    expect(keeper.getBlockGas(ctx)).toBe(150_000n);
    // Used more than the limited wanted: used counts.
    keeper.addGasWanted(ctx, 100_000n);
    const end = ctx.with({ blockGasUsed: 80_000n });
    keeper.endBlock(end);
    expect(keeper.getBlockGas(ctx)).toBe(80_000n);
    expect(end.events.events.at(-1)).toMatchObject({ type: 'block_gas', attributes: [{ key: 'height', value: '10' }, { key: 'amount', value: '80000' }] });
    // With no base fee the gas wanted is not counted (Ethermint's GasWantedDecorator).
    keeper.setParams(ctx, { ...defaultFeeMarketParams(), noBaseFee: true });
    keeper.addGasWanted(ctx, 1_000_000n);
    keeper.endBlock(ctx.with({ blockGasUsed: 0n }));
    expect(keeper.getBlockGas(ctx)).toBe(0n);
  });

  test('bad params are named', () => {
    expect(validateFeeMarketParams(create(ParamsSchema, { ...defaultFeeMarketParams(), baseFeeChangeDenominator: 0, minGasMultiplier: (2n * 10n ** 18n).toString() }))).toEqual([
      'base fee change denominator cannot be 0',
      `invalid parameter: min gas multiplier must be between 0 and 1: ${2n * 10n ** 18n}`,
    ]);
  });
});
