/**
 * End-to-end, with the real binary: a node whose genesis mints 0.1 % a block from height 1 (a
 * tenth of it to an allocation address) and pays a bonus from a pre-funded pool. The derived
 * commands `q mint params|inflation|annual-inflation` (also under `minting`) and `q bonus
 * params` answer from it; REST answers the spec's /net/ paths and the upstream /aioz/ paths alike;
 * gRPC answers the same; and the supply read at two consecutive heights grows exactly by the rule.
 */
import { jest } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { runCli, snapshotTree, tempHome, cliOk as ok } from '../helpers/cli.js';
import { validatorHome } from '../helpers/genesisTemplate.js';
import { type BackgroundNode, fastBlocks, startOnFreePorts, stopNode, waitForHeight } from '../helpers/node.js';

jest.setTimeout(120_000);

/** sha256("bonus")[:20] under this chain's prefix. */
const BONUS_POOL = 'token1tu3qkjj9svkqwy89pkvlkqsz4p25mnly9pxz0j';
const ALLOCATION = 'token1kkgmmahsmpldmek2d28ydh9dy2xr3zwzdvp9h4';
const POOL = 5_000_000_000_000_000_000n;
const BONUS = 1_000_000_000_000_000_000n;


async function rest(url: string, height?: number): Promise<any> {
  const res = await fetch(url, { headers: height === undefined ? {} : { 'x-cosmos-block-height': String(height) } });
  expect(res.status).toBe(200);
  return res.json();
}

describe('bad mint and bonus genesis, without a node', () => {
  test('validate-genesis names each problem on one line, exits non-zero, writes nothing', async () => {
    const home = tempHome('tokend-mint-bad-');
    await ok(['init', 'bad', '--chain-id', 'testnet', '--home', home]);
    const path = join(home, 'config', 'genesis.json');
    const genesis = JSON.parse(readFileSync(path, 'utf8'));
    const cases: [(state: any) => void, RegExp][] = [
      [(state) => (state.mint.params.blocks_per_year = '0'), /^Error: .* is invalid: mint: params: blocks per year must be positive: 0/],
      [(state) => (state.mint.params.inflation = '1.5'), /mint: params: inflation cannot be greater than 1: 1\.500000000000000000/],
      [(state) => (state.mint.params.additional_allocations = [{ address: ALLOCATION, rate: '0.7' }, { address: BONUS_POOL, rate: '0.7' }]), /module account/],
      [(state) => (state.bonus.params.bonus_amount = '-3'), /bonus: params: bonus amount cannot be negative: -3/],
    ];
    for (const [edit, expected] of cases) {
      const bad = structuredClone(genesis);
      edit(bad.app_state);
      writeFileSync(path, JSON.stringify(bad));
      const before = snapshotTree(home);
      const result = await runCli(['validate-genesis', '--home', home]);
      expect(result.code).not.toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(expected);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(snapshotTree(home)).toEqual(before);
    }
  });
});

describe('mint and bonus queries against a running node', () => {
  let bg: BackgroundNode | undefined;
  let home: string;

  beforeAll(async () => {
    // alice (JUNK) funded and bonded by a collected gentx: the shared template (test/helpers/genesisTemplate.ts).
    home = await validatorHome('tokend-mint-');
    const h = ['--home', home];
    fastBlocks(home, '500ms');
    // The operator's economics, written into genesis.json as one would by hand.
    const path = join(home, 'config', 'genesis.json');
    const genesis = JSON.parse(readFileSync(path, 'utf8'));
    const state = genesis.app_state;
    state.mint.params = { ...state.mint.params, start_height: '1', blocks_per_year: '1000', inflation: '0.001', additional_allocations: [{ address: ALLOCATION, rate: '0.1' }] };
    state.bonus.params = { bonus_denom: 'attotoken', bonus_amount: BONUS.toString() };
    state.bank.balances.push({ address: BONUS_POOL, coins: [{ denom: 'attotoken', amount: POOL.toString() }] });
    const supply = state.bank.supply.find((coin: { denom: string }) => coin.denom === 'attotoken');
    supply.amount = (BigInt(supply.amount) + POOL).toString();
    writeFileSync(path, JSON.stringify(genesis, null, 2));
    await ok(['validate-genesis', ...h]);
    bg = await startOnFreePorts(home, 3);
  });

  afterAll(async () => {
    if (bg) await stopNode(bg);
  });

  test('q mint params|inflation|annual-inflation, the minting alias, q bonus params', async () => {
    const n = ['--node', bg!.node, '-o', 'json'];
    const params = JSON.parse(await ok(['q', 'mint', 'params', ...n]));
    expect(params).toEqual({
      params: { mint_denom: 'attotoken', blocks_per_year: '1000', start_height: '1', inflation: '0.001000000000000000', additional_allocations: [{ address: ALLOCATION, rate: '0.100000000000000000' }] },
    });
    expect(JSON.parse(await ok(['q', 'minting', 'params', ...n]))).toEqual(params);
    expect(JSON.parse(await ok(['q', 'mint', 'inflation', ...n]))).toEqual({ inflation: '0.001000000000000000' });
    expect(JSON.parse(await ok(['q', 'minting', 'inflation', ...n]))).toEqual({ inflation: '0.001000000000000000' });
    // (1.001)^1000 − 1 with 18-digit rounding at each step, as LegacyDec.Power.
    const annual = JSON.parse(await ok(['q', 'mint', 'annual-inflation', ...n])).annual_inflation as string;
    expect(annual).toMatch(/^1\.71692393/);
    expect(JSON.parse(await ok(['q', 'bonus', 'params', ...n]))).toEqual({ params: { bonus_denom: 'attotoken', bonus_amount: BONUS.toString() } });
    // Text output names the fields too.
    expect(await ok(['q', 'mint', 'inflation', '--node', bg!.node])).toContain('0.001000000000000000');
  });

  test('an unknown mint subcommand: one line, exit 2, nothing written', async () => {
    // A home of its own: the running node keeps writing into the node's.
    const quiet = tempHome();
    const before = snapshotTree(quiet);
    const result = await runCli(['q', 'mint', 'inflatoin', '--home', quiet]);
    expect({ code: result.code, stdout: result.stdout, lines: result.stderr.trim().split('\n').length }).toEqual({ code: 2, stdout: '', lines: 1 });
    expect(result.stderr).toMatch(/^Error: unknown command "inflatoin" for "tokend query mint"; did you mean "inflation"/);
    expect(snapshotTree(quiet)).toEqual(before);
  });

  test('REST: /net/ and /aioz/ paths answer alike; the supply grows exactly by the rule between two heights', async () => {
    for (const path of ['mint/v1/params', 'mint/v1/inflation', 'mint/v1/annual_inflation', 'bonus/v1/params']) {
      const [net, aioz] = await Promise.all([rest(`${bg!.api}/net/${path}`), rest(`${bg!.api}/aioz/${path}`)]);
      expect(net).toEqual(aioz);
    }
    expect(await rest(`${bg!.api}/net/mint/v1/inflation`)).toEqual({ inflation: '0.001000000000000000' });
    // The latest block in /status can be stored a moment before the app commits its state (as in
    // CometBFT): read at the block before it, whose state is certainly queryable.
    const height = (await waitForHeight(bg!.node, 5)) - 1;
    const supplyAt = async (h: number): Promise<bigint> => BigInt((await rest(`${bg!.api}/sdk/bank/v1beta1/supply/by_denom?denom=attotoken`, h)).amount.amount);
    const balanceAt = async (address: string, h: number): Promise<bigint> => BigInt((await rest(`${bg!.api}/sdk/bank/v1beta1/balances/${address}/by_denom?denom=attotoken`, h)).balance.amount);
    const [before, after] = await Promise.all([supplyAt(height - 1), supplyAt(height)]);
    const minted = (before * 1_000_000_000_000_000n) / 10n ** 18n;
    expect(after - before).toBe(minted);
    const [allocBefore, allocAfter] = await Promise.all([balanceAt(ALLOCATION, height - 1), balanceAt(ALLOCATION, height)]);
    expect(allocAfter - allocBefore).toBe(minted / 10n);
    const [poolBefore, poolAfter] = await Promise.all([balanceAt(BONUS_POOL, height - 1), balanceAt(BONUS_POOL, height)]);
    expect(poolBefore - poolAfter).toBe(poolBefore < BONUS ? poolBefore : BONUS);
  });

  test('gRPC: aioz.mint.v1.Query and aioz.bonus.v1.Query', async () => {
    const definition = protoLoader.loadSync(['aioz/mint/v1/query.proto', 'aioz/bonus/v1/query.proto'], { includeDirs: ['proto'], keepCase: true, longs: String, enums: String, defaults: true });
    const pkg = grpc.loadPackageDefinition(definition) as any;
    const mint = new pkg.aioz.mint.v1.Query(bg!.grpc, grpc.credentials.createInsecure());
    const bonus = new pkg.aioz.bonus.v1.Query(bg!.grpc, grpc.credentials.createInsecure());
    const call = (client: any, method: string): Promise<any> => new Promise((resolve, reject) => client[method]({}, (err: Error | null, res: any) => (err ? reject(err) : resolve(res))));
    try {
      const params = await call(mint, 'Params');
      // On the protobuf wire a LegacyDec is the 10^18-scaled integer's text.
      expect(params.params).toMatchObject({ mint_denom: 'attotoken', blocks_per_year: '1000', start_height: '1', inflation: '1000000000000000' });
      expect(Buffer.from((await call(mint, 'Inflation')).inflation).toString()).toBe('1000000000000000');
      expect(Buffer.from((await call(mint, 'AnnualInflation')).annual_inflation).toString()).toMatch(/^171692393/);
      expect((await call(bonus, 'Params')).params).toEqual({ bonus_denom: 'attotoken', bonus_amount: BONUS.toString() });
    } finally {
      mint.close();
      bonus.close();
    }
  });
});
