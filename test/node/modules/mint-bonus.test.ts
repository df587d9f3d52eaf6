/**
 * The network's mint and bonus modules in the app: each block mints exactly
 * TruncateInt(inflation × supply) from start_height (compounding), pays the allocations their
 * truncated shares and the fee collector the rest; the bonus pool pays bonus_amount a block to the
 * fee collector until it is empty (the last payment is the remainder). After every block the total
 * supply equals the sum of all balances. Also: queries, genesis validation lines, export → init,
 * MsgUpdateParams with and without the gov authority, and the testnet figures.
 */
import { create, toBinary, type DescMessage, type MessageInitShape, type MessageShape } from '@bufbuild/protobuf';
import { ParamsSchema as BonusParamsSchema } from '../../../src/gen/aioz/bonus/v1/params_pb.js';
import { QueryParamsRequestSchema as BonusParamsRequestSchema, QueryParamsResponseSchema as BonusParamsResponseSchema } from '../../../src/gen/aioz/bonus/v1/query_pb.js';
import { AllocationSchema, ParamsSchema as MintParamsSchema } from '../../../src/gen/aioz/mint/v1/mint_pb.js';
import {
  QueryAnnualInflationRequestSchema,
  QueryAnnualInflationResponseSchema,
  QueryInflationRequestSchema,
  QueryInflationResponseSchema,
  QueryParamsRequestSchema,
  QueryParamsResponseSchema,
} from '../../../src/gen/aioz/mint/v1/query_pb.js';
import { MsgUpdateParamsSchema as MintMsgUpdateParamsSchema } from '../../../src/gen/aioz/mint/v1/tx_pb.js';
import { MsgUpdateParamsSchema as BonusMsgUpdateParamsSchema } from '../../../src/gen/aioz/bonus/v1/tx_pb.js';
import { APP_MODULES, MODULE_ORDERS } from '../../../src/node/app/modules.js';
import { exportAppState, validateAppState } from '../../../src/node/app/genesis.js';
import { fromGatewayJson, toGatewayJson } from '../../../src/node/codec/index.js';
import { decodeBech32 } from '../../../src/keyring/address.js';
import { BankKeeper } from '../../../src/node/modules/bank/keeper.js';
import { createModuleManager } from '../../../src/node/app/modules.js';
import { validateBonusGenesis } from '../../../src/node/modules/bonus/index.js';
import { annualInflation, blockProvision, decPow, validateMintGenesis } from '../../../src/node/modules/mint/index.js';
import { accString, moduleAddress } from '../../../src/node/modules/shared/address.js';
import { Context, emptyHeader } from '../../../src/node/modules/shared/context.js';
import { DEC_ONE, decToString } from '../../../src/node/modules/shared/dec.js';
import { defineModule, type ModuleDeps } from '../../../src/node/platform/module.js';
import { CHAIN_ID, DENOM, TOKEN, abciQuery, buildAppState, pack, signTx, startChain, testKey, type Chain } from '../app/helpers.js';
import type { AppStateJson } from '../../../src/node/app/genesis.js';

const alice = testKey('alice');
const validator = testKey('validator');
const carol = testKey('carol');
const dave = testKey('dave');

const FEE_COLLECTOR = moduleAddress('fee_collector');
const BONUS_POOL = moduleAddress('bonus');
const MINT_ACCOUNT = moduleAddress('mint');
/** Distribution moves the fee collector's balance here at each BeginBlock after height 1. */
const DISTRIBUTION_ACCOUNT = moduleAddress('distribution');

/** 0.001 per block and 0.1 / 0.05 allocation rates, as wire text. */
const RATE = 1_000_000_000_000_000n;
const CAROL_RATE = 100_000_000_000_000_000n;
const DAVE_RATE = 50_000_000_000_000_000n;
const BONUS = 7n * TOKEN + 3n;
const POOL = BONUS * 3n + 11n;

type Json = any;

function economyState(options: { startHeight?: number; pool?: bigint } = {}): AppStateJson {
  const state = buildAppState({ accounts: [[alice, 1000n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN }) as Json;
  state.mint.params = {
    mint_denom: DENOM,
    blocks_per_year: '100',
    start_height: String(options.startHeight ?? 3),
    inflation: decToString(RATE),
    additional_allocations: [
      { address: carol.bech32, rate: decToString(CAROL_RATE) },
      { address: dave.bech32, rate: decToString(DAVE_RATE) },
    ],
  };
  state.bonus.params = { bonus_denom: DENOM, bonus_amount: BONUS.toString() };
  const pool = options.pool ?? POOL;
  if (pool > 0n) {
    state.bank.balances.push({ address: accString(BONUS_POOL), coins: [{ denom: DENOM, amount: pool.toString() }] });
    const supply = state.bank.supply.find((coin: Json) => coin.denom === DENOM);
    supply.amount = (BigInt(supply.amount) + pool).toString();
  }
  return state;
}

function bank(chain: Chain): { keeper: BankKeeper; ctx: Context } {
  return { keeper: createModuleManager().keeper<BankKeeper>('bank'), ctx: new Context({ mode: 'query', multiStore: chain.store.branchCommitted(), header: emptyHeader(CHAIN_ID, chain.height) }) };
}

interface Books {
  supply: bigint;
  sumOfBalances: bigint;
  /** The fee collector's balance plus what distribution already moved out of it. */
  feeCollector: bigint;
  carol: bigint;
  dave: bigint;
  pool: bigint;
  mintAccount: bigint;
}

async function books(chain: Chain): Promise<Books> {
  const { keeper, ctx } = bank(chain);
  let sumOfBalances = 0n;
  for await (const [, coins] of keeper.iterateAllBalances(ctx)) sumOfBalances += coins.find((c) => c.denom === DENOM)?.amount ?? 0n;
  return {
    supply: keeper.getSupply(ctx, DENOM),
    sumOfBalances,
    feeCollector: keeper.getBalance(ctx, FEE_COLLECTOR, DENOM) + keeper.getBalance(ctx, DISTRIBUTION_ACCOUNT, DENOM),
    carol: keeper.getBalance(ctx, carol.address, DENOM),
    dave: keeper.getBalance(ctx, dave.address, DENOM),
    pool: keeper.getBalance(ctx, BONUS_POOL, DENOM),
    mintAccount: keeper.getBalance(ctx, MINT_ACCOUNT, DENOM),
  };
}

async function query<Req extends DescMessage, Res extends DescMessage>(chain: Chain, path: string, requestSchema: Req, request: MessageInitShape<Req>, responseSchema: Res): Promise<MessageShape<Res>> {
  const { response, value } = await abciQuery(chain.app, path, toBinary(requestSchema, create(requestSchema, request)), responseSchema);
  if (value === undefined) throw new Error(response.log);
  return value;
}

describe('mint and bonus: supply per block', () => {
  let chain: Chain;

  afterEach(async () => {
    await chain.close();
  });

  test('supply grows exactly by the mint rule from start_height; the bonus moves the pool to the fee collector until it is empty; supply = Σ balances after every block', async () => {
    chain = await startChain(economyState({ startHeight: 3 }));
    // The genesis books (nothing is committed before block 1).
    const genesisSupply = 1200n * TOKEN + POOL;
    let prev: Books = { supply: genesisSupply, sumOfBalances: genesisSupply, feeCollector: 0n, carol: 0n, dave: 0n, pool: POOL, mintAccount: 0n };
    for (let i = 0; i < 7; i++) {
      const response = await chain.block([]);
      const height = chain.height;
      const now = await books(chain);
      expect(now.supply).toBe(now.sumOfBalances);
      expect(now.mintAccount).toBe(0n);
      const minted = height >= 3 ? (prev.supply * RATE) / DEC_ONE : 0n;
      expect(now.supply - prev.supply).toBe(minted);
      const carolShare = (minted * CAROL_RATE) / DEC_ONE;
      const daveShare = (minted * DAVE_RATE) / DEC_ONE;
      expect(now.carol - prev.carol).toBe(carolShare);
      expect(now.dave - prev.dave).toBe(daveShare);
      const bonus = prev.pool < BONUS ? prev.pool : BONUS;
      expect(prev.pool - now.pool).toBe(bonus);
      expect(now.feeCollector - prev.feeCollector).toBe(minted - carolShare - daveShare + bonus);
      const mintEvents = response.events.filter((event) => event.type === 'mint');
      expect(mintEvents).toHaveLength(minted > 0n ? 1 : 0);
      if (minted > 0n) expect(mintEvents[0]!.attributes.find((a) => a.key === 'amount')?.value).toBe(minted.toString());
      const bonusEvents = response.events.filter((event) => event.type === 'bonus');
      expect(bonusEvents.map((e) => e.attributes.find((a) => a.key === 'amount')?.value)).toEqual(bonus > 0n ? [`${bonus}${DENOM}`] : []);
      prev = now;
    }
    // Blocks 1–3 paid the full amount, block 4 the 11 left; then nothing.
    expect(prev.pool).toBe(0n);
  });

  test('queries: params, the rate in force (zero before start_height) and the compounded annual rate; bonus params', async () => {
    chain = await startChain(economyState({ startHeight: 3 }));
    const inflation = async (): Promise<string> => new TextDecoder().decode((await query(chain, '/aioz.mint.v1.Query/Inflation', QueryInflationRequestSchema, {}, QueryInflationResponseSchema)).inflation);
    const annual = async (): Promise<string> => new TextDecoder().decode((await query(chain, '/aioz.mint.v1.Query/AnnualInflation', QueryAnnualInflationRequestSchema, {}, QueryAnnualInflationResponseSchema)).annualInflation);
    await chain.block([]);
    expect(await inflation()).toBe('0');
    expect(await annual()).toBe('0');
    await chain.block([]);
    await chain.block([]);
    expect(await inflation()).toBe(RATE.toString());
    expect(await annual()).toBe((decPow(DEC_ONE + RATE, 100n) - DEC_ONE).toString());
    const params = await query(chain, '/aioz.mint.v1.Query/Params', QueryParamsRequestSchema, {}, QueryParamsResponseSchema);
    expect(toGatewayJson(QueryParamsResponseSchema, params)).toEqual({
      params: {
        mint_denom: DENOM,
        blocks_per_year: '100',
        start_height: '3',
        inflation: '0.001000000000000000',
        additional_allocations: [
          { address: carol.bech32, rate: '0.100000000000000000' },
          { address: dave.bech32, rate: '0.050000000000000000' },
        ],
      },
    });
    const response = await query(chain, '/aioz.mint.v1.Query/Inflation', QueryInflationRequestSchema, {}, QueryInflationResponseSchema);
    expect(toGatewayJson(QueryInflationResponseSchema, response)).toEqual({ inflation: '0.001000000000000000' });
    // The bytes-held LegacyDec reads back from gateway JSON to its wire text; a zero prints as 0.
    expect(new TextDecoder().decode(fromGatewayJson(QueryInflationResponseSchema, { inflation: '0.5' }).inflation)).toBe('500000000000000000');
    expect(toGatewayJson(QueryAnnualInflationResponseSchema, create(QueryAnnualInflationResponseSchema))).toEqual({ annual_inflation: '0.000000000000000000' });
    const bonus = await query(chain, '/aioz.bonus.v1.Query/Params', BonusParamsRequestSchema, {}, BonusParamsResponseSchema);
    expect(toGatewayJson(BonusParamsResponseSchema, bonus)).toEqual({ params: { bonus_denom: DENOM, bonus_amount: BONUS.toString() } });
  });

  test('export → init: the same params; the next block leaves the same books on both chains', async () => {
    chain = await startChain(economyState({ startHeight: 1 }));
    await chain.block([]);
    await chain.block([]);
    const exported = (await exportAppState(chain.store)) as Json;
    expect(validateAppState(exported, CHAIN_ID)).toEqual([]);
    expect(exported.mint).toEqual((economyState({ startHeight: 1 }) as Json).mint);
    expect(exported.bonus).toEqual((economyState() as Json).bonus);
    const before = await books(chain);
    const restarted = await startChain(exported);
    try {
      await chain.block([]);
      await restarted.block([]);
      const next = await books(chain);
      const nextRestarted = await books(restarted);
      expect(nextRestarted).toEqual(next);
      expect(next.supply - before.supply).toBe((before.supply * RATE) / DEC_ONE);
      expect((await exportAppState(restarted.store) as Json).mint).toEqual(exported.mint);
    } finally {
      await restarted.close();
    }
  });

  test('MsgUpdateParams: refused from a plain account (gov 13), applied from the gov authority; invalid params refused', async () => {
    let deps: ModuleDeps | undefined;
    const pending: { msg: ReturnType<typeof pack> }[] = [];
    const errors: string[] = [];
    const gov = defineModule({
      name: 'govprobe',
      consensusVersion: 1,
      create(d) {
        deps = d;
        return {
          keeper: undefined,
          endBlock: async (ctx) => {
            for (const { msg } of pending.splice(0)) {
              try {
                await d.router.dispatch(ctx, msg, [d.authority]);
              } catch (err) {
                errors.push((err as Error).message);
              }
            }
          },
        };
      },
    });
    chain = await startChain(economyState(), {
      appOptions: { moduleSet: { modules: [...APP_MODULES, gov], orders: { ...MODULE_ORDERS, endBlock: [...MODULE_ORDERS.endBlock, 'govprobe'], initGenesis: [...MODULE_ORDERS.initGenesis, 'govprobe'], exportGenesis: [...MODULE_ORDERS.exportGenesis, 'govprobe'] } } },
    });
    const newParams = create(MintParamsSchema, { mintDenom: DENOM, blocksPerYear: 10n, startHeight: 1n, inflation: '2000000000000000', additionalAllocations: [] });
    const byAlice = pack(MintMsgUpdateParamsSchema, { authority: alice.bech32, params: newParams });
    const result = (await chain.block([signTx({ signer: alice, msgs: [byAlice], sequence: 0n, accountNumber: 0n })])).txResults[0]!;
    expect([result.codespace, result.code]).toEqual(['gov', 13]);
    expect(result.log).toContain(`invalid authority; expected ${accString(deps!.authority)}, got ${alice.bech32}`);

    pending.push({ msg: pack(MintMsgUpdateParamsSchema, { authority: accString(deps!.authority), params: newParams }) });
    pending.push({ msg: pack(BonusMsgUpdateParamsSchema, { authority: accString(deps!.authority), params: create(BonusParamsSchema, { bonusDenom: DENOM, bonusAmount: '5' }) }) });
    pending.push({ msg: pack(MintMsgUpdateParamsSchema, { authority: accString(deps!.authority), params: create(MintParamsSchema, { ...newParams, inflation: '-1' }) }) });
    pending.push({
      msg: pack(MintMsgUpdateParamsSchema, {
        authority: accString(deps!.authority),
        params: create(MintParamsSchema, { ...newParams, additionalAllocations: [create(AllocationSchema, { address: accString(FEE_COLLECTOR), rate: '1' })] }),
      }),
    });
    await chain.block([]);
    expect(errors).toEqual([
      'inflation cannot be negative: -0.000000000000000001: invalid request',
      `additional allocation 0: ${accString(FEE_COLLECTOR)} is a module account and cannot receive allocations: invalid request`,
    ]);
    const params = await query(chain, '/aioz.mint.v1.Query/Params', QueryParamsRequestSchema, {}, QueryParamsResponseSchema);
    expect(params.params).toEqual(newParams);
    const bonus = await query(chain, '/aioz.bonus.v1.Query/Params', BonusParamsRequestSchema, {}, BonusParamsResponseSchema);
    expect(bonus.params?.bonusAmount).toBe('5');
    const before = await books(chain);
    await chain.block([]);
    const after = await books(chain);
    expect(after.supply - before.supply).toBe((before.supply * 2_000_000_000_000_000n) / DEC_ONE);
    expect(before.pool - after.pool).toBe(5n);
  });
});

describe('genesis validation: one line per problem', () => {
  const good = (economyState() as Json).mint;
  const mint = (params: Json): string[] => validateMintGenesis({ params: { ...good.params, ...params } });

  test('mint', () => {
    expect(validateMintGenesis(good)).toEqual([]);
    expect(mint({ mint_denom: '1x' })).toEqual(['params: mint denom: invalid denom: 1x']);
    expect(mint({ blocks_per_year: '0' })).toEqual(['params: blocks per year must be positive: 0']);
    expect(mint({ start_height: '-5' })).toEqual(['params: start height cannot be negative: -5']);
    expect(mint({ inflation: '-0.1' })).toEqual(['params: inflation cannot be negative: -0.100000000000000000']);
    expect(mint({ inflation: '1.5' })).toEqual(['params: inflation cannot be greater than 1: 1.500000000000000000']);
    expect(mint({ inflation: 'abc' })).toEqual([expect.stringMatching(/^invalid mint genesis: .*inflation/)]);
    expect(mint({ additional_allocations: [{ address: 'nope', rate: '0.1' }] })).toEqual([expect.stringMatching(/^params: additional allocation 0: invalid address "nope": /)]);
    expect(mint({ additional_allocations: [{ address: carol.bech32, rate: '0.1' }, { address: carol.bech32, rate: '0.1' }] })).toEqual([`params: additional allocation 1: duplicate address ${carol.bech32}`]);
    expect(mint({ additional_allocations: [{ address: carol.bech32, rate: '0.6' }, { address: dave.bech32, rate: '0.5' }] })).toEqual(['params: additional allocation rates add up to 1.100000000000000000, more than 1']);
    expect(mint({ additional_allocations: [{ address: carol.bech32, rate: '-0.1' }] })).toEqual(['params: additional allocation 0: rate cannot be negative: -0.100000000000000000']);
    expect(validateMintGenesis({})).toEqual(['params are missing']);
    expect(validateMintGenesis({ params: good.params, extra: 1 })).toEqual([expect.stringMatching(/^invalid mint genesis: /)]);
  });

  test('bonus', () => {
    expect(validateBonusGenesis({ params: { bonus_denom: DENOM, bonus_amount: '1' } })).toEqual([]);
    expect(validateBonusGenesis({ params: { bonus_denom: '', bonus_amount: '1' } })).toEqual(['params: bonus denom: invalid denom: ']);
    expect(validateBonusGenesis({ params: { bonus_denom: DENOM, bonus_amount: '-1' } })).toEqual(['params: bonus amount cannot be negative: -1']);
    expect(validateBonusGenesis({ params: { bonus_denom: DENOM, bonus_amount: '1.5' } })).toEqual(['params: bonus amount is not an integer: 1.5']);
    expect(validateBonusGenesis({})).toEqual(['params are missing']);
  });

  test('the app refuses a chain whose mint genesis is invalid, naming the module', () => {
    const state = economyState() as Json;
    state.mint.params.blocks_per_year = '0';
    expect(validateAppState(state, CHAIN_ID)).toEqual([expect.stringMatching(/mint.*blocks per year must be positive: 0/)]);
  });
});

describe('the testnet figures', () => {
  test('0.000000013654032124 per block compounds to 9 % a year over 6 311 520 blocks (linear would be 8.6 %)', () => {
    const rate = 13_654_032_124n;
    const annual = annualInflation(rate, 6_311_520n);
    expect(decToString(annual)).toBe('0.090000000001303375');
    expect(rate * 6_311_520n).toBeLessThan(87n * 10n ** 15n);
    expect(blockProvision(rate, 10n ** 27n)).toBe(13_654_032_124_000_000_000n);
  });

  test('the bonus pool is the module account at sha256("bonus")[:20] (the testnet’s aioz1tu3qkjj9…)', () => {
    expect(decodeBech32('aioz1tu3qkjj9svkqwy89pkvlkqsz4p25mnlyfcu6xk').data).toEqual(BONUS_POOL);
  });
});
