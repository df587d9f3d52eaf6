/**
 * Genesis helpers: default app_state, validation naming every problem, add-genesis-account,
 * collect-gentxs, InitChain failures with the reason, and export → re-init with identical balances.
 */
import { create, toBinary } from '@bufbuild/protobuf';
import { QueryAllBalancesRequestSchema, QueryAllBalancesResponseSchema } from '../../../src/gen/cosmos/bank/v1beta1/query_pb.js';
import { TokendError } from '../../../src/util/errors.js';
import {
  addGenesisAccount,
  collectGentxs,
  defaultAppState,
  dryRunGenesis,
  exportAppState,
  exportValidators,
  genesisBalance,
  validateAppState,
  type AppStateJson,
} from '../../../src/node/app/index.js';
import { CHAIN_ID, TOKEN, abciQuery, buildAppState, consensusKey, makeGentx, msgSend, signTx, startChain, tempLevelDb, testKey } from './helpers.js';

const alice = testKey('alice');
const bob = testKey('bob');
const validator = testKey('validator');

type Json = Record<string, any>;

function funded(): AppStateJson {
  let state = defaultAppState({ denom: 'attotoken' });
  state = addGenesisAccount(state, alice.address, [{ denom: 'attotoken', amount: 1000n * TOKEN }]);
  state = addGenesisAccount(state, validator.address, [{ denom: 'attotoken', amount: 200n * TOKEN }]);
  return state;
}

describe('defaultAppState', () => {
  test('every module with SDK snake_case JSON and this chain’s defaults', () => {
    const state = defaultAppState({ denom: 'attotoken' }) as Json;
    expect(Object.keys(state).sort()).toEqual(['aiozrc20', 'auth', 'authz', 'bank', 'bech32ibc', 'bonus', 'capability', 'distribution', 'evidence', 'evm', 'feegrant', 'feeibc', 'feemarket', 'genutil', 'gov', 'group', 'ibc', 'interchainaccounts', 'mint', 'slashing', 'staking', 'transfer', 'upgrade']);
    expect(state.authz).toEqual({ authorization: [] });
    expect(state.capability).toEqual({ index: '1', owners: [] });
    expect(state.feegrant).toEqual({ allowances: [] });
    expect(state.auth.params).toEqual({ max_memo_characters: '256', tx_sig_limit: '7', tx_size_cost_per_byte: '10', sig_verify_cost_ed25519: '590', sig_verify_cost_secp256k1: '1000' });
    expect(state.auth.accounts).toEqual([]);
    expect(state.bank.params).toEqual({ send_enabled: [], default_send_enabled: true });
    expect(state.bank.denom_metadata[0]).toMatchObject({ base: 'attotoken', display: 'token', name: 'Token', symbol: 'TOKEN' });
    expect(state.staking.params).toEqual({ unbonding_time: '1814400s', max_validators: 100, max_entries: 7, historical_entries: 10000, bond_denom: 'attotoken', min_commission_rate: '0.000000000000000000', accept_all_validators: true });
    expect(state.genutil).toEqual({ gen_txs: [] });
    expect(state.mint).toEqual({ params: { mint_denom: 'attotoken', blocks_per_year: '6311520', start_height: '51840', inflation: '0.000000013654032124', additional_allocations: [] } });
    expect(state.bonus).toEqual({ params: { bonus_denom: 'attotoken', bonus_amount: '4753213172104342535' } });
    expect(state.aiozrc20).toEqual({ params: { enabled: true, evm_hook_enabled: true }, token_pairs: [] });
    expect(validateAppState(state, CHAIN_ID)).toEqual([]);
  });

  test('another denom flows into staking and metadata', () => {
    const state = defaultAppState({ denom: 'astake' }) as Json;
    expect(state.staking.params.bond_denom).toBe('astake');
    expect(state.bank.denom_metadata).toEqual([]);
  });
});

describe('addGenesisAccount', () => {
  test('adds an EthAccount with the next account number, a balance and the supply', () => {
    const state = funded() as Json;
    expect(state.auth.accounts).toHaveLength(2);
    expect(state.auth.accounts[0]).toEqual({
      '@type': '/ethermint.types.v1.EthAccount',
      base_account: { address: alice.bech32, pub_key: null, account_number: '0', sequence: '0' },
      code_hash: '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
    });
    expect(state.auth.accounts[1].base_account.account_number).toBe('1');
    expect(state.bank.balances).toEqual([
      { address: alice.bech32, coins: [{ denom: 'attotoken', amount: (1000n * TOKEN).toString() }] },
      { address: validator.bech32, coins: [{ denom: 'attotoken', amount: (200n * TOKEN).toString() }] },
    ]);
    expect(state.bank.supply).toEqual([{ denom: 'attotoken', amount: (1200n * TOKEN).toString() }]);
    expect(genesisBalance(state, alice.address, 'attotoken')).toBe(1000n * TOKEN);
    expect(genesisBalance(state, bob.address, 'attotoken')).toBe(0n);
  });

  test('a duplicate address is refused and the input is not modified', () => {
    const state = funded();
    const before = JSON.stringify(state);
    expect(() => addGenesisAccount(state, alice.address, [{ denom: 'attotoken', amount: 1n }])).toThrow(`cannot add account at existing address ${alice.bech32}`);
    expect(() => addGenesisAccount(state, bob.address, [{ denom: '1x', amount: 1n }])).toThrow(TokendError);
    expect(JSON.stringify(state)).toBe(before);
  });
});

describe('validateAppState names every problem', () => {
  test('bad addresses, coins, duplicates, supply, params', () => {
    const state = funded() as Json;
    state.bank.balances.push({ address: 'token1notanaddress', coins: [{ denom: 'attotoken', amount: '1' }] });
    state.bank.balances.push({ address: bob.bech32, coins: [{ denom: 'x', amount: '5' }] });
    state.auth.accounts.push(structuredClone(state.auth.accounts[0]));
    state.auth.params.max_memo_characters = '0';
    state.staking.params.max_validators = 0;
    const problems = validateAppState(state, CHAIN_ID);
    expect(problems).toEqual(
      expect.arrayContaining([
        'auth: invalid max memo characters: 0',
        `auth: duplicate account found in genesis state; address: ${alice.bech32}`,
        expect.stringMatching(/^bank: balance of "token1notanaddress": decoding bech32 failed/),
        `bank: balance of ${bob.bech32}: invalid denom: x`,
        'staking: max validators must be positive: 0',
      ]),
    );
  });

  test('supply different from the sum of balances', () => {
    const state = funded() as Json;
    state.bank.supply = [{ denom: 'attotoken', amount: '5' }];
    expect(validateAppState(state)).toEqual([`bank: genesis supply is incorrect, expected 5attotoken, got ${1200n * TOKEN}attotoken`]);
  });

  test('not an object', () => {
    expect(validateAppState([])).toEqual(['app_state must be a JSON object with one entry per module']);
  });

  test('gentx unsigned, mis-signed, wrong chain id, underfunded, unknown account', () => {
    const state = funded() as Json;
    const cons = consensusKey('v');
    state.genutil.gen_txs = [
      makeGentx(validator, cons, 100n * TOKEN, { unsigned: true }),
      makeGentx(validator, cons, 100n * TOKEN, { signWith: alice }),
      makeGentx(validator, cons, 100n * TOKEN, { chainId: 'other_1-1' }),
      makeGentx(validator, cons, 300n * TOKEN),
      makeGentx(bob, cons, 1n * TOKEN),
    ];
    const sigFailure = `signature verification failed; please verify account number (0) and chain-id (${CHAIN_ID}): (unable to verify single signer signature)`;
    expect(validateAppState(state, CHAIN_ID)).toEqual([
      `genutil: gentx 0: gentx of ${validator.bech32} is not signed`,
      `genutil: gentx 1: ${sigFailure}`,
      `genutil: gentx 2: ${sigFailure}`,
      `genutil: gentx 3: insufficient fund for delegation ${validator.bech32}: ${200n * TOKEN}attotoken < ${300n * TOKEN}attotoken`,
      `genutil: gentx 4: account ${bob.bech32} is not a genesis account; add it with add-genesis-account`,
    ]);
  });
});

describe('collectGentxs and InitChain', () => {
  test('collectGentxs refuses a bad gentx with the reason', () => {
    expect(() => collectGentxs(funded(), [makeGentx(validator, consensusKey('v'), 100n * TOKEN, { chainId: 'other_1-1' })], CHAIN_ID)).toThrow(/^invalid gentx: gentx 0: signature verification failed/);
    const state = collectGentxs(funded(), [makeGentx(validator, consensusKey('v'), 100n * TOKEN)], CHAIN_ID) as Json;
    expect(state.genutil.gen_txs).toHaveLength(1);
    expect(state.genutil.gen_txs[0].body.messages[0]['@type']).toBe('/cosmos.staking.v1beta1.MsgCreateValidator');
  });

  test('InitChain delivers gentxs through the finalize path and fails with the reason', async () => {
    const underfunded = funded() as Json;
    underfunded.genutil.gen_txs = [makeGentx(validator, consensusKey('v'), 300n * TOKEN)];
    await expect(dryRunGenesis(underfunded, CHAIN_ID)).rejects.toThrow(
      /failed to execute DeliverTx for '.*': failed to execute message; message index: 0: failed to delegate; 200000000000000000000attotoken is smaller than 300000000000000000000attotoken: insufficient funds$/,
    );
    const misSigned = funded() as Json;
    misSigned.genutil.gen_txs = [makeGentx(validator, consensusKey('v'), 100n * TOKEN, { signWith: alice })];
    await expect(dryRunGenesis(misSigned, CHAIN_ID)).rejects.toThrow(/signature verification failed; please verify account number \(0\) and chain-id \(testnet_9000-1\)/);
    const unsigned = funded() as Json;
    unsigned.genutil.gen_txs = [makeGentx(validator, consensusKey('v'), 100n * TOKEN, { unsigned: true })];
    await expect(dryRunGenesis(unsigned, CHAIN_ID)).rejects.toThrow(/no signatures supplied$/);
    await expect(dryRunGenesis(funded(), CHAIN_ID)).rejects.toThrow(/^validator set is empty after InitGenesis/);
    const good = await dryRunGenesis(collectGentxs(funded(), [makeGentx(validator, consensusKey('v'), 100n * TOKEN)], CHAIN_ID), CHAIN_ID);
    expect(good.validators.map((v) => v.power)).toEqual([100n]);
  });

  test('InitChain refuses a state that does not validate', async () => {
    const state = funded() as Json;
    state.bank.supply = [{ denom: 'attotoken', amount: '1' }];
    await expect(dryRunGenesis(state, CHAIN_ID)).rejects.toThrow(/^invalid genesis state: bank: genesis supply is incorrect/);
  });
});

describe('export', () => {
  test('exported app_state validates and re-initialises a chain with identical balances', async () => {
    const level = await tempLevelDb();
    try {
      const chain = await startChain(buildAppState({ accounts: [[alice, 1000n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN }), { db: level.db });
      await chain.block([signTx({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, 77n)], sequence: 0n, accountNumber: 0n, fee: 300_000n })]);
      await chain.block([signTx({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, 23n)], sequence: 1n, accountNumber: 0n })]);
      const exported = await exportAppState(chain.store);
      const validators = await exportValidators(chain.store);
      expect(validators.map((v) => [v.power, v.operatorAddress])).toEqual([[100n, validator.valoper]]);
      expect(validateAppState(exported, CHAIN_ID)).toEqual([]);
      expect((exported as Json).staking.exported).toBe(true);

      const addresses = ((exported as Json).bank.balances as { address: string }[]).map((balance) => balance.address);
      expect(addresses).toContain(bob.bech32);
      const balancesOf = async (c: typeof chain): Promise<Record<string, string>> => {
        const out: Record<string, string> = {};
        for (const address of addresses) {
          const { value } = await abciQuery(c.app, '/cosmos.bank.v1beta1.Query/AllBalances', toBinary(QueryAllBalancesRequestSchema, create(QueryAllBalancesRequestSchema, { address })), QueryAllBalancesResponseSchema);
          out[address] = value!.balances.map((coin) => `${coin.amount}${coin.denom}`).join(',');
        }
        return out;
      };
      const before = await balancesOf(chain);
      await chain.close();

      const restarted = await startChain(exported);
      expect(restarted.init.validators.map((v) => v.power)).toEqual([100n]);
      await restarted.block([]);
      expect(await balancesOf(restarted)).toEqual(before);
      // Accounts keep their numbers and sequences: alice continues at sequence 2.
      const next = signTx({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, 1n)], sequence: 2n, accountNumber: 0n });
      expect((await restarted.block([next])).txResults[0]!.code).toBe(0);
      expect(await exportAppState(restarted.store).then((state) => (state as Json).auth.accounts.length)).toBe((exported as Json).auth.accounts.length);
      await restarted.close();
    } finally {
      await level.cleanup();
    }
  });
});
