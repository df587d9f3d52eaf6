/**
 * The query router over ABCI: paths from the Query service descriptors, the COMPAT §3.5 error
 * mapping, heights, raw store queries with proofs, pagination rules (COMPAT §5), Simulate (§3.6).
 */
import { create, fromBinary, toBinary, type DescMessage, type MessageInitShape } from '@bufbuild/protobuf';
import { AnySchema } from '@bufbuild/protobuf/wkt';
import * as authQuery from '../../../src/gen/cosmos/auth/v1beta1/query_pb.js';
import { ModuleAccountSchema } from '../../../src/gen/cosmos/auth/v1beta1/auth_pb.js';
import * as bankQuery from '../../../src/gen/cosmos/bank/v1beta1/query_pb.js';
import * as stakingQuery from '../../../src/gen/cosmos/staking/v1beta1/query_pb.js';
import * as nodeQuery from '../../../src/gen/cosmos/base/node/v1beta1/query_pb.js';
import * as txService from '../../../src/gen/cosmos/tx/v1beta1/service_pb.js';
import { TxMsgDataSchema } from '../../../src/gen/cosmos/base/abci/v1beta1/abci_pb.js';
import { PageRequestSchema } from '../../../src/gen/cosmos/base/query/v1beta1/pagination_pb.js';
import { SignMode } from '../../../src/gen/cosmos/tx/signing/v1beta1/signing_pb.js';
import { TxRawSchema } from '../../../src/gen/cosmos/tx/v1beta1/tx_pb.js';
import type { ResponseQuery } from '../../../src/node/abci/types.js';
import { addGenesisAccount, collectGentxs, defaultAppState, type App } from '../../../src/node/app/index.js';
import { verifyStoreProof } from '../../helpers/ics23.js';
import { CHAIN_ID, TOKEN, consensusKey, makeGentx, msgSend, signTx, startChain, testKey, txParts, type Chain } from './helpers.js';

const alice = testKey('alice');
const bob = testKey('bob');
const validator = testKey('validator');
const DENOMS = ['coina', 'coinb', 'coinc', 'coind', 'coine'];

async function ask<Req extends DescMessage, Res extends DescMessage>(
  app: App,
  path: string,
  requestSchema: Req,
  request: MessageInitShape<Req>,
  responseSchema: Res,
  height = 0,
): Promise<{ raw: ResponseQuery; value: ReturnType<typeof fromBinary<Res>> | undefined }> {
  const raw = await app.query({ path, data: toBinary(requestSchema, create(requestSchema, request)), height, prove: false });
  return { raw, value: raw.code === 0 ? fromBinary(responseSchema, raw.value) : undefined };
}

const page = (init: MessageInitShape<typeof PageRequestSchema>): ReturnType<typeof create<typeof PageRequestSchema>> => create(PageRequestSchema, init);

describe('query router', () => {
  let chain: Chain;

  beforeAll(async () => {
    let state = defaultAppState({ denom: 'attotoken' });
    state = addGenesisAccount(state, alice.address, [{ denom: 'attotoken', amount: 1000n * TOKEN }, ...DENOMS.map((denom, i) => ({ denom, amount: BigInt(i + 1) }))]);
    state = addGenesisAccount(state, validator.address, [{ denom: 'attotoken', amount: 500n * TOKEN }]);
    state = collectGentxs(state, [makeGentx(validator, consensusKey('v'), 100n * TOKEN)], CHAIN_ID);
    chain = await startChain(state, { appOptions: { minGasPrices: '0.5attotoken', pruning: { strategy: 'custom', keepRecent: 2, interval: 10 } } });
    await chain.block([]);
    await chain.block([signTx({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, 10n)], sequence: 0n, accountNumber: 0n, fee: 200_000n })]);
  });

  afterAll(async () => {
    await chain.close();
  });

  test('the registry is data: every implemented method by path, with schemas', () => {
    const paths = chain.app.queryRouter.routes().map((route) => route.path);
    for (const method of ['Accounts', 'Account', 'AccountAddressByID', 'Params', 'ModuleAccounts', 'ModuleAccountByName', 'Bech32Prefix', 'AddressBytesToString', 'AddressStringToBytes', 'AccountInfo']) {
      expect(paths).toContain(`/cosmos.auth.v1beta1.Query/${method}`);
    }
    for (const method of ['Balance', 'AllBalances', 'SpendableBalances', 'SpendableBalanceByDenom', 'TotalSupply', 'SupplyOf', 'Params', 'DenomMetadata', 'DenomMetadataByQueryString', 'DenomsMetadata', 'DenomOwners', 'DenomOwnersByQuery', 'SendEnabled']) {
      expect(paths).toContain(`/cosmos.bank.v1beta1.Query/${method}`);
    }
    expect(paths).toContain('/cosmos.staking.v1beta1.Query/Validators');
    expect(paths).toContain('/cosmos.tx.v1beta1.Service/Simulate');
    const route = chain.app.queryRoute('/cosmos.bank.v1beta1.Query/AllBalances')!;
    expect(route.requestSchema.typeName).toBe('cosmos.bank.v1beta1.QueryAllBalancesRequest');
    expect(route.responseSchema.typeName).toBe('cosmos.bank.v1beta1.QueryAllBalancesResponse');
    expect(route.service).toBe('cosmos.bank.v1beta1.Query');
  });

  test('unknown path → 6 "unknown query path: unknown request"', async () => {
    const raw = await chain.app.query({ path: '/cosmos.bank.v1beta1.Query/Nope', data: new Uint8Array(0), height: 0, prove: false });
    expect({ code: raw.code, log: raw.log, codespace: raw.codespace }).toEqual({ code: 6, log: 'unknown query path: unknown request', codespace: 'sdk' });
  });

  test('missing account → 22 with the gRPC status text, height echoed', async () => {
    const { raw } = await ask(chain.app, '/cosmos.auth.v1beta1.Query/Account', authQuery.QueryAccountRequestSchema, { address: bob.bech32.replace(/.$/, '') + 'x' }, authQuery.QueryAccountResponseSchema);
    expect(raw.code).toBe(18);
    const stranger = testKey('stranger').bech32;
    const missing = await ask(chain.app, '/cosmos.auth.v1beta1.Query/Account', authQuery.QueryAccountRequestSchema, { address: stranger }, authQuery.QueryAccountResponseSchema);
    expect({ code: missing.raw.code, log: missing.raw.log, codespace: missing.raw.codespace, height: missing.raw.height }).toEqual({
      code: 22,
      log: `rpc error: code = NotFound desc = account ${stranger} not found: key not found`,
      codespace: 'sdk',
      height: chain.height,
    });
  });

  test('invalid arguments → 18 "rpc error: code = InvalidArgument desc = …: invalid request"', async () => {
    const { raw } = await ask(chain.app, '/cosmos.bank.v1beta1.Query/Balance', bankQuery.QueryBalanceRequestSchema, { address: alice.bech32, denom: '1bad' }, bankQuery.QueryBalanceResponseSchema);
    expect(raw.log).toBe('rpc error: code = InvalidArgument desc = invalid denom: 1bad: invalid request');
    expect(raw.code).toBe(18);
  });

  test('heights: future → 26, negative → 18, past → the state then, pruned → 18 naming the range', async () => {
    const future = await chain.app.query({ path: '/cosmos.bank.v1beta1.Query/Params', data: new Uint8Array(0), height: chain.height + 5, prove: false });
    expect({ code: future.code, log: future.log }).toEqual({ code: 26, log: 'cannot query with height in the future; please provide a valid height: invalid height' });
    const negative = await chain.app.query({ path: '/cosmos.bank.v1beta1.Query/Params', data: new Uint8Array(0), height: -1, prove: false });
    expect(negative.code).toBe(18);
    const atOne = await ask(chain.app, '/cosmos.bank.v1beta1.Query/Balance', bankQuery.QueryBalanceRequestSchema, { address: bob.bech32, denom: 'attotoken' }, bankQuery.QueryBalanceResponseSchema, 1);
    expect(atOne.value!.balance!.amount).toBe('0');
    expect(atOne.raw.height).toBe(1);
    for (let i = 0; i < 10; i++) await chain.block([]);
    const pruned = await chain.app.query({ path: '/cosmos.bank.v1beta1.Query/Params', data: new Uint8Array(0), height: 1, prove: false });
    expect(pruned.code).toBe(18);
    expect(pruned.log).toMatch(new RegExp(`^failed to load state at height 1; version 1 has been pruned: available versions are \\d+–${chain.height} \\(latest height: ${chain.height}\\): invalid request$`));
  });

  test('raw store query with prove returns proof ops that verify against the app hash', async () => {
    const key = Uint8Array.of(0x01, ...alice.address); // auth: 0x01 ‖ address → account
    const raw = await chain.app.query({ path: '/store/acc/key', data: key, height: 0, prove: true });
    expect(raw.code).toBe(0);
    expect(raw.value.length).toBeGreaterThan(0);
    expect(raw.proofOps!.ops.length).toBe(2);
    const appHash = (await chain.app.info({ version: '', blockVersion: 11n, p2pVersion: 8n, abciVersion: '' })).lastBlockAppHash;
    expect(verifyStoreProof(raw.proofOps!.ops, appHash, 'acc', key, raw.value)).toBe(true);
    expect(verifyStoreProof(raw.proofOps!.ops, appHash, 'acc', key, Uint8Array.of(1))).toBe(false);
    const unknownStore = await chain.app.query({ path: '/store/nope/key', data: key, height: 0, prove: false });
    expect(unknownStore.code).toBe(6);
    expect(unknownStore.log).toMatch(/no such store: nope/);
    // Absence, with the response height the proof is for.
    const absentKey = Uint8Array.of(0x01, ...bob.address.map((b) => b ^ 0xff));
    const absent = await chain.app.query({ path: '/store/acc/key', data: absentKey, height: 0, prove: true });
    expect(absent.code).toBe(0);
    expect(absent.height).toBe(chain.height);
    expect(absent.value.length).toBe(0);
    expect(verifyStoreProof(absent.proofOps!.ops, appHash, 'acc', absentKey, undefined)).toBe(true);
    // Bad input: one clear error each.
    const emptyKey = await chain.app.query({ path: '/store/acc/key', data: new Uint8Array(0), height: 0, prove: true });
    expect(emptyKey.log).toMatch(/query cannot be zero length/);
    const badPath = await chain.app.query({ path: '/store/acc/keys', data: key, height: 0, prove: true });
    expect(badPath.log).toMatch(/unexpected query path: \/store\/acc\/keys/);
    const pruned = await chain.app.query({ path: '/store/acc/key', data: key, height: 1, prove: true });
    expect(pruned.code).not.toBe(0);
    expect(pruned.log).toMatch(/version 1 has been pruned: available versions are \d+–\d+/);
    // Subspace: every pair under the prefix, as cosmos.base.kv.v1beta1.Pairs.
    const subspace = await chain.app.query({ path: '/store/acc/subspace', data: Uint8Array.of(0x01), height: 0, prove: false });
    expect(subspace.code).toBe(0);
    expect(Buffer.from(subspace.value).includes(Buffer.from(alice.address))).toBe(true);
  });

  test('pagination: offset/limit/count_total, next_key, key continuation, reverse, key+offset error, limit 0 → 100', async () => {
    const path = '/cosmos.bank.v1beta1.Query/AllBalances';
    const balances = async (pagination: ReturnType<typeof page>): Promise<{ raw: ResponseQuery; denoms: string[]; nextKey: string; total: bigint }> => {
      const { raw, value } = await ask(chain.app, path, bankQuery.QueryAllBalancesRequestSchema, { address: alice.bech32, pagination }, bankQuery.QueryAllBalancesResponseSchema);
      return { raw, denoms: value?.balances.map((coin) => coin.denom) ?? [], nextKey: Buffer.from(value?.pagination?.nextKey ?? []).toString(), total: value?.pagination?.total ?? -1n };
    };
    const all = ['attotoken', ...DENOMS];
    let result = await balances(page({ limit: 2n, countTotal: true }));
    expect(result).toMatchObject({ denoms: all.slice(0, 2), nextKey: all[2], total: 6n });
    result = await balances(page({ limit: 2n, key: new TextEncoder().encode(result.nextKey), countTotal: true }));
    expect(result).toMatchObject({ denoms: all.slice(2, 4), nextKey: all[4], total: 0n });
    result = await balances(page({ limit: 2n, offset: 4n }));
    expect(result).toMatchObject({ denoms: all.slice(4, 6), nextKey: '', total: 0n });
    result = await balances(page({ limit: 2n, offset: 5n, countTotal: true }));
    expect(result).toMatchObject({ denoms: all.slice(5), nextKey: '', total: 6n });
    result = await balances(page({ limit: 0n }));
    expect(result).toMatchObject({ denoms: all, nextKey: '', total: 6n });
    result = await balances(page({ limit: 2n, reverse: true }));
    expect(result).toMatchObject({ denoms: ['coine', 'coind'], nextKey: 'coinc' });
    result = await balances(page({ limit: 2n, reverse: true, key: new TextEncoder().encode('coinc') }));
    expect(result).toMatchObject({ denoms: ['coinc', 'coinb'], nextKey: 'coina' });
    result = await balances(page({ limit: 2n, offset: 1n, key: new TextEncoder().encode('coinc') }));
    expect(result.raw.code).toBe(18);
    expect(result.raw.log).toBe('rpc error: code = InvalidArgument desc = invalid request, either offset or key is expected, got both: invalid request');
    const resolved = await ask(chain.app, path, bankQuery.QueryAllBalancesRequestSchema, { address: alice.bech32, resolveDenom: true, pagination: page({ limit: 1n }) }, bankQuery.QueryAllBalancesResponseSchema);
    expect(resolved.value!.balances[0]!.denom).toBe('token');
    const unfunded = await ask(chain.app, path, bankQuery.QueryAllBalancesRequestSchema, { address: testKey('nobody').bech32 }, bankQuery.QueryAllBalancesResponseSchema);
    expect(unfunded.value!.balances).toEqual([]);
    expect(unfunded.value!.pagination!.nextKey).toHaveLength(0);
    expect(unfunded.value!.pagination!.total).toBe(0n);
  });

  test('accounts, module accounts, params, bech32 prefix, account by id', async () => {
    const accounts = await ask(chain.app, '/cosmos.auth.v1beta1.Query/Accounts', authQuery.QueryAccountsRequestSchema, { pagination: page({ limit: 100n, countTotal: true }) }, authQuery.QueryAccountsResponseSchema);
    expect(accounts.value!.pagination!.total).toBe(12n); // alice, validator, bob, 9 module accounts
    const modules = await ask(chain.app, '/cosmos.auth.v1beta1.Query/ModuleAccounts', authQuery.QueryModuleAccountsRequestSchema, {}, authQuery.QueryModuleAccountsResponseSchema);
    expect(modules.value!.accounts.map((any) => fromBinary(ModuleAccountSchema, any.value).name)).toEqual(['aiozrc20', 'bonded_tokens_pool', 'bonus', 'distribution', 'fee_collector', 'feeibc', 'gov', 'interchainaccounts', 'mint', 'not_bonded_tokens_pool', 'transfer']);
    const byName = await ask(chain.app, '/cosmos.auth.v1beta1.Query/ModuleAccountByName', authQuery.QueryModuleAccountByNameRequestSchema, { name: 'nope' }, authQuery.QueryModuleAccountByNameResponseSchema);
    expect(byName.raw.log).toBe('rpc error: code = NotFound desc = account nope not found: key not found');
    const params = await ask(chain.app, '/cosmos.auth.v1beta1.Query/Params', authQuery.QueryParamsRequestSchema, {}, authQuery.QueryParamsResponseSchema);
    expect(params.value!.params).toMatchObject({ maxMemoCharacters: 256n, txSigLimit: 7n, txSizeCostPerByte: 10n, sigVerifyCostEd25519: 590n, sigVerifyCostSecp256k1: 1000n });
    const prefix = await ask(chain.app, '/cosmos.auth.v1beta1.Query/Bech32Prefix', authQuery.Bech32PrefixRequestSchema, {}, authQuery.Bech32PrefixResponseSchema);
    expect(prefix.value!.bech32Prefix).toBe('token');
    const byId = await ask(chain.app, '/cosmos.auth.v1beta1.Query/AccountAddressByID', authQuery.QueryAccountAddressByIDRequestSchema, { accountId: 1n }, authQuery.QueryAccountAddressByIDResponseSchema);
    expect(byId.value!.accountAddress).toBe(validator.bech32);
    const info = await ask(chain.app, '/cosmos.auth.v1beta1.Query/AccountInfo', authQuery.QueryAccountInfoRequestSchema, { address: alice.bech32 }, authQuery.QueryAccountInfoResponseSchema);
    expect(info.value!.info!.sequence).toBe(1n);
  });

  test('bank supply, metadata, denom owners, send enabled', async () => {
    const supply = await ask(chain.app, '/cosmos.bank.v1beta1.Query/SupplyOf', bankQuery.QuerySupplyOfRequestSchema, { denom: 'attotoken' }, bankQuery.QuerySupplyOfResponseSchema);
    expect(supply.value!.amount!.amount).toBe((1500n * TOKEN).toString());
    const metadata = await ask(chain.app, '/cosmos.bank.v1beta1.Query/DenomMetadata', bankQuery.QueryDenomMetadataRequestSchema, { denom: 'attotoken' }, bankQuery.QueryDenomMetadataResponseSchema);
    expect(metadata.value!.metadata).toMatchObject({ base: 'attotoken', display: 'token', name: 'Token', symbol: 'TOKEN' });
    expect(metadata.value!.metadata!.denomUnits.map((unit) => [unit.denom, unit.exponent])).toEqual([['attotoken', 0], ['token', 18]]);
    const none = await ask(chain.app, '/cosmos.bank.v1beta1.Query/DenomMetadata', bankQuery.QueryDenomMetadataRequestSchema, { denom: 'coina' }, bankQuery.QueryDenomMetadataResponseSchema);
    expect(none.raw.log).toBe('rpc error: code = NotFound desc = client metadata for denom coina: key not found');
    const owners = await ask(chain.app, '/cosmos.bank.v1beta1.Query/DenomOwners', bankQuery.QueryDenomOwnersRequestSchema, { denom: 'coinb' }, bankQuery.QueryDenomOwnersResponseSchema);
    expect(owners.value!.denomOwners.map((owner) => [owner.address, owner.balance!.amount])).toEqual([[alice.bech32, '2']]);
    const enabled = await ask(chain.app, '/cosmos.bank.v1beta1.Query/SendEnabled', bankQuery.QuerySendEnabledRequestSchema, {}, bankQuery.QuerySendEnabledResponseSchema);
    expect(enabled.value!.sendEnabled).toEqual([]);
  });

  test('staking: validator, delegations, historical info, empty lists for what does not exist yet', async () => {
    const delegation = await ask(chain.app, '/cosmos.staking.v1beta1.Query/Delegation', stakingQuery.QueryDelegationRequestSchema, { delegatorAddr: validator.bech32, validatorAddr: validator.valoper }, stakingQuery.QueryDelegationResponseSchema);
    expect(delegation.value!.delegationResponse!.balance!.amount).toBe((100n * TOKEN).toString());
    const missing = await ask(chain.app, '/cosmos.staking.v1beta1.Query/Delegation', stakingQuery.QueryDelegationRequestSchema, { delegatorAddr: alice.bech32, validatorAddr: validator.valoper }, stakingQuery.QueryDelegationResponseSchema);
    expect(missing.raw.log).toBe(`rpc error: code = NotFound desc = delegation with delegator ${alice.bech32} not found for validator ${validator.valoper}: key not found`);
    const byDelegator = await ask(chain.app, '/cosmos.staking.v1beta1.Query/DelegatorDelegations', stakingQuery.QueryDelegatorDelegationsRequestSchema, { delegatorAddr: validator.bech32 }, stakingQuery.QueryDelegatorDelegationsResponseSchema);
    expect(byDelegator.value!.delegationResponses).toHaveLength(1);
    const byValidator = await ask(chain.app, '/cosmos.staking.v1beta1.Query/ValidatorDelegations', stakingQuery.QueryValidatorDelegationsRequestSchema, { validatorAddr: validator.valoper }, stakingQuery.QueryValidatorDelegationsResponseSchema);
    expect(byValidator.value!.delegationResponses[0]!.delegation!.delegatorAddress).toBe(validator.bech32);
    const unbonding = await ask(chain.app, '/cosmos.staking.v1beta1.Query/DelegatorUnbondingDelegations', stakingQuery.QueryDelegatorUnbondingDelegationsRequestSchema, { delegatorAddr: alice.bech32 }, stakingQuery.QueryDelegatorUnbondingDelegationsResponseSchema);
    expect(unbonding.value!.unbondingResponses).toEqual([]);
    const hist = await ask(chain.app, '/cosmos.staking.v1beta1.Query/HistoricalInfo', stakingQuery.QueryHistoricalInfoRequestSchema, { height: BigInt(chain.height) }, stakingQuery.QueryHistoricalInfoResponseSchema);
    expect(hist.value!.hist!.valset).toHaveLength(1);
    const badStatus = await ask(chain.app, '/cosmos.staking.v1beta1.Query/Validators', stakingQuery.QueryValidatorsRequestSchema, { status: 'NOPE' }, stakingQuery.QueryValidatorsResponseSchema);
    expect(badStatus.raw.log).toBe('rpc error: code = InvalidArgument desc = invalid validator status NOPE: invalid request');
    const notFound = await ask(chain.app, '/cosmos.staking.v1beta1.Query/Validator', stakingQuery.QueryValidatorRequestSchema, { validatorAddr: alice.valoper }, stakingQuery.QueryValidatorResponseSchema);
    expect(notFound.raw.code).toBe(22);
  });

  test('node config reports the minimum gas price', async () => {
    const config = await ask(chain.app, '/cosmos.base.node.v1beta1.Service/Config', nodeQuery.ConfigRequestSchema, {}, nodeQuery.ConfigResponseSchema);
    expect(config.value!.minimumGasPrice).toBe('0.500000000000000000attotoken');
  });

  test('Simulate: unsigned tx, no fee, gas used reported; sequence is still checked', async () => {
    const seq = 1n;
    const parts = txParts({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, 1n)], sequence: seq, accountNumber: 0n, signMode: SignMode.UNSPECIFIED, gas: 0n });
    const txBytes = toBinary(TxRawSchema, create(TxRawSchema, { ...parts, signatures: [new Uint8Array(0)] }));
    const ok = await ask(chain.app, '/cosmos.tx.v1beta1.Service/Simulate', txService.SimulateRequestSchema, { txBytes }, txService.SimulateResponseSchema);
    expect(ok.raw.log).toBe('');
    expect(ok.value!.gasInfo!.gasUsed).toBeGreaterThan(21_000n);
    expect(ok.value!.result!.msgResponses[0]!.typeUrl).toBe('/cosmos.bank.v1beta1.MsgSendResponse');
    expect(fromBinary(TxMsgDataSchema, ok.value!.result!.data).msgResponses).toHaveLength(1);
    expect(ok.value!.result!.events.map((event) => event.type)).toContain('transfer');
    // The state did not change.
    const balance = await ask(chain.app, '/cosmos.bank.v1beta1.Query/Balance', bankQuery.QueryBalanceRequestSchema, { address: bob.bech32, denom: 'attotoken' }, bankQuery.QueryBalanceResponseSchema);
    expect(balance.value!.balance!.amount).toBe('10');

    const wrongSeq = txParts({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, 1n)], sequence: 7n, accountNumber: 0n, signMode: SignMode.UNSPECIFIED });
    const bad = await ask(chain.app, '/cosmos.tx.v1beta1.Service/Simulate', txService.SimulateRequestSchema, { txBytes: toBinary(TxRawSchema, create(TxRawSchema, { ...wrongSeq, signatures: [new Uint8Array(0)] })) }, txService.SimulateResponseSchema);
    // A failing simulation is the client's mistake: InvalidArgument (ABCI code 18, REST 400), where
    // the SDK answers Unknown (code 6, HTTP 500) — issue 14.
    expect(bad.raw.code).toBe(18);
    expect(bad.raw.log).toMatch(/^rpc error: code = InvalidArgument desc = account sequence mismatch, expected 1, got 7: incorrect account sequence With gas wanted: '200000' and gas used: '\d+' : invalid request$/);
  });

  test('TxDecode and TxEncode round-trip', async () => {
    const bytes = signTx({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, 1n)], sequence: 1n, accountNumber: 0n });
    const decoded = await ask(chain.app, '/cosmos.tx.v1beta1.Service/TxDecode', txService.TxDecodeRequestSchema, { txBytes: bytes }, txService.TxDecodeResponseSchema);
    expect(decoded.value!.tx!.body!.messages[0]!.typeUrl).toBe('/cosmos.bank.v1beta1.MsgSend');
    const encoded = await ask(chain.app, '/cosmos.tx.v1beta1.Service/TxEncode', txService.TxEncodeRequestSchema, { tx: decoded.value!.tx }, txService.TxEncodeResponseSchema);
    expect(Buffer.from(encoded.value!.txBytes)).toEqual(Buffer.from(bytes));
    expect(create(AnySchema).typeUrl).toBe('');
  });
});
