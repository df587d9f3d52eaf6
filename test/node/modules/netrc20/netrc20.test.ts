/**
 * The converter in-process: genesis validation (one line per problem), init and export of token
 * pairs (export re-imports to the same state), the queries' answers and refusals (InvalidArgument
 * for a malformed token, NotFound for an unknown one), and the solc artifact being what
 * contracts/*.sol compile to.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { create, toBinary, type DescMessage } from '@bufbuild/protobuf';
import * as q from '../../../../src/gen/aioz/aiozrc20/v1/query_pb.js';
import { Owner } from '../../../../src/gen/aioz/aiozrc20/v1/aiozrc20_pb.js';
import { MsgConvertAIOZRC20Schema, MsgConvertCoinSchema } from '../../../../src/gen/aioz/aiozrc20/v1/tx_pb.js';
import { exportAppState, validateAppState } from '../../../../src/node/app/genesis.js';
import { appRegistry } from '../../../../src/node/app/modules.js';
import { AminoJsonEncoder } from '../../../../src/node/codec/aminoJson.js';
import { anyPack } from '../../../../src/node/codec/index.js';
import { validateAiozrc20Genesis } from '../../../../src/node/modules/netrc20/genesis.js';
import { REPO_ROOT } from '../../../helpers/cli.js';
import { TOKEN, abciQuery, buildAppState, startChain, testKey, type Chain } from '../../app/helpers.js';

const alice = testKey('alice');
const validator = testKey('validator');
const MODULE_PAIR = { aiozrc20_address: '0x1111111111111111111111111111111111111111', denom: 'ucoin', enabled: true, contract_owner: 'OWNER_MODULE' };
const EXTERNAL_PAIR = { aiozrc20_address: '0x2222222222222222222222222222222222222222', denom: 'aiozrc20/0x2222222222222222222222222222222222222222', enabled: false, contract_owner: 'OWNER_EXTERNAL' };

describe('netrc20 genesis', () => {
  test('validation names each problem', () => {
    expect(validateAiozrc20Genesis({ params: { enabled: true, evm_hook_enabled: false }, token_pairs: [MODULE_PAIR, EXTERNAL_PAIR] })).toEqual([]);
    expect(
      validateAiozrc20Genesis({
        params: { enabled: true, evm_hook_enabled: true },
        token_pairs: [
          { ...MODULE_PAIR, aiozrc20_address: '0x12' },
          { ...MODULE_PAIR, contract_owner: 'OWNER_UNSPECIFIED' },
          { ...EXTERNAL_PAIR, denom: '1bad' },
        ],
      }),
    ).toEqual([
      'token_pairs[0]: invalid ERC20 contract address "0x12"',
      'token_pairs[1]: undefined owner of contract pair',
      'token_pairs[1]: duplicate denomination ucoin',
      expect.stringMatching(/^token_pairs\[2\]: .*1bad/),
    ]);
    expect(validateAiozrc20Genesis({ params: { enabled: 'yes' } })[0]).toMatch(/^invalid aiozrc20 genesis: /);
  });
});

describe('netrc20 in the app', () => {
  let chain: Chain;

  beforeAll(async () => {
    const state = buildAppState({ accounts: [[alice, 1000n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN });
    state.aiozrc20 = { params: { enabled: true, evm_hook_enabled: false }, token_pairs: [MODULE_PAIR, EXTERNAL_PAIR] };
    chain = await startChain(state);
    await chain.block([]);
  });
  afterAll(async () => {
    await chain.close();
  });

  const ask = async <Res extends DescMessage>(method: string, requestSchema: DescMessage, init: Record<string, unknown>, responseSchema: Res) =>
    abciQuery(chain.app, `/aioz.aiozrc20.v1.Query/${method}`, toBinary(requestSchema, create(requestSchema, init)), responseSchema);

  test('queries: pairs, a pair by address or denom, params, converter address', async () => {
    const pairs = await ask('TokenPairs', q.QueryTokenPairsRequestSchema, {}, q.QueryTokenPairsResponseSchema);
    expect(pairs.value!.tokenPairs.map((p) => [p.denom, p.enabled, p.contractOwner]).sort()).toEqual([
      ['aiozrc20/0x2222222222222222222222222222222222222222', false, Owner.EXTERNAL],
      ['ucoin', true, Owner.MODULE],
    ]);
    for (const token of ['ucoin', MODULE_PAIR.aiozrc20_address]) {
      const one = await ask('TokenPair', q.QueryTokenPairRequestSchema, { token }, q.QueryTokenPairResponseSchema);
      expect(one.value!.tokenPair?.denom).toBe('ucoin');
    }
    const params = await ask('Params', q.QueryParamsRequestSchema, {}, q.QueryParamsResponseSchema);
    expect(params.value!.params).toMatchObject({ enabled: true, evmHookEnabled: false });
    const converter = await ask('ConverterAddress', q.QueryConverterAddressRequestSchema, {}, q.QueryConverterAddressResponseSchema);
    expect(converter.value!.converterAddress.toLowerCase()).toBe('0xf7f8ee7243a1e81078dedc47e7ca8c5ff4c115af');
  });

  test('a malformed token is InvalidArgument, an unknown one NotFound', async () => {
    const bad = await ask('TokenPair', q.QueryTokenPairRequestSchema, { token: '0xzz!' }, q.QueryTokenPairResponseSchema);
    expect(bad.response.log).toMatch(/code = InvalidArgument desc = invalid format for token 0xzz!/);
    const unknown = await ask('TokenPair', q.QueryTokenPairRequestSchema, { token: 'nocoin' }, q.QueryTokenPairResponseSchema);
    expect(unknown.response.log).toMatch(/code = NotFound desc = token pair with token 'nocoin'/);
  });

  test('export holds the pairs and params and validates', async () => {
    const exported = await exportAppState(chain.store);
    expect(exported.aiozrc20).toEqual({ params: { enabled: true, evm_hook_enabled: false }, token_pairs: expect.arrayContaining([MODULE_PAIR, EXTERNAL_PAIR]) });
    expect(validateAppState(exported, 'testnet_9000-1')).toEqual([]);
  });
});

describe('netrc20 amino JSON', () => {
  test('the messages sign under aiozjs\u2019 amino names and fields', () => {
    const encoder = new AminoJsonEncoder({ registry: appRegistry });
    expect(encoder.encodeAny(anyPack(MsgConvertCoinSchema, create(MsgConvertCoinSchema, { coin: { denom: 'ucoin', amount: '5' }, receiver: '0xab', sender: 'token1x' })))).toBe(
      '{"type":"aiozrc20/MsgConvertCoin","value":{"coin":{"amount":"5","denom":"ucoin"},"receiver":"0xab","sender":"token1x"}}',
    );
    expect(encoder.encodeAny(anyPack(MsgConvertAIOZRC20Schema, create(MsgConvertAIOZRC20Schema, { contractAddress: '0xcd', amount: '7', receiver: 'token1y', sender: '0xab' })))).toBe(
      '{"type":"aiozrc20/MsgConvertAIOZRC20","value":{"amount":"7","contract_address":"0xcd","receiver":"token1y","sender":"0xab"}}',
    );
  });
});

describe('solc artifacts', () => {
  test('src/contracts/artifacts.ts is what contracts/*.sol compile to', () => {
    expect(() => execFileSync(process.execPath, [join(REPO_ROOT, 'scripts', 'compile-contracts.js'), '--check'], { stdio: 'pipe' })).not.toThrow();
  });
});
