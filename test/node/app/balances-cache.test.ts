/**
 * AllBalances answers first pages from a cached denom list (synchronous reads). The answers must
 * be exactly those of the store at every step: new denoms after caching, denoms dropping to zero,
 * queries between FinalizeBlock and Commit, historical heights, pagination.
 */
import type { BankKeeper } from '../../../src/node/modules/bank/keeper.js';
import { create, toBinary } from '@bufbuild/protobuf';
import { sha256 } from '@noble/hashes/sha2.js';
import { QueryAllBalancesRequestSchema, QueryAllBalancesResponseSchema } from '../../../src/gen/cosmos/bank/v1beta1/query_pb.js';
import { QueryAccountRequestSchema, QueryAccountResponseSchema } from '../../../src/gen/cosmos/auth/v1beta1/query_pb.js';
import { EthAccountSchema } from '../../../src/gen/ethermint/types/v1/account_pb.js';
import { fromBinary } from '@bufbuild/protobuf';
import { addGenesisAccount, collectGentxs, defaultAppState } from '../../../src/node/app/index.js';
import { CHAIN_ID, DENOM, GENESIS_TIME, TOKEN, abciQuery, consensusKey, makeGentx, msgSend, signTx, startChain, testKey, type Chain } from './helpers.js';

const alice = testKey('alice');
const bob = testKey('bob');
const carol = testKey('carol');
const validator = testKey('validator');
const STAKE = 'bstake';

async function balances(chain: Chain, address: string, height = 0, limit?: bigint): Promise<string[]> {
  const request = create(QueryAllBalancesRequestSchema, { address, ...(limit ? { pagination: { limit } } : {}) });
  const { value } = await abciQuery(chain.app, '/cosmos.bank.v1beta1.Query/AllBalances', toBinary(QueryAllBalancesRequestSchema, request), QueryAllBalancesResponseSchema, height);
  return value!.balances.map((coin) => `${coin.amount}${coin.denom}`);
}

describe('AllBalances from the denom cache', () => {
  let chain: Chain;
  let aliceSeq = 0n;
  const send = (from: typeof alice, sequence: bigint, to: string, amount: bigint, denom: string, accountNumber = 0n): Uint8Array =>
    signTx({ signer: from, msgs: [msgSend(from.bech32, to, amount, denom)], sequence, accountNumber });
  async function accountNumber(address: string): Promise<bigint> {
    const { value } = await abciQuery(chain.app, '/cosmos.auth.v1beta1.Query/Account', toBinary(QueryAccountRequestSchema, create(QueryAccountRequestSchema, { address })), QueryAccountResponseSchema);
    return fromBinary(EthAccountSchema, value!.account!.value).baseAccount!.accountNumber;
  }

  beforeAll(async () => {
    let state = defaultAppState({ denom: DENOM });
    state = addGenesisAccount(state, alice.address, [
      { denom: DENOM, amount: 1000n * TOKEN },
      { denom: STAKE, amount: 50n },
    ]);
    state = addGenesisAccount(state, validator.address, [{ denom: DENOM, amount: 200n * TOKEN }]);
    state = collectGentxs(state, [makeGentx(validator, consensusKey(validator.bech32), 100n * TOKEN)], CHAIN_ID);
    chain = await startChain(state);
    await chain.block([]);
  });

  afterAll(async () => {
    await chain.close();
  });

  test('a cached empty list does not hide a denom received later', async () => {
    expect(await balances(chain, bob.bech32)).toEqual([]);
    expect(await balances(chain, bob.bech32)).toEqual([]);
    const result = await chain.block([send(alice, aliceSeq++, bob.bech32, 5n, DENOM)]);
    expect(result.txResults[0]!.code).toBe(0);
    expect(await balances(chain, bob.bech32)).toEqual([`5${DENOM}`]);
    // The second query was answered from the cached list (a query context at the latest height).
    const { ctx } = chain.app.createQueryContext(0);
    expect(chain.app.manager.keeper<BankKeeper>('bank').cachedDenoms(ctx, bob.address)).toEqual([DENOM]);
    expect(await balances(chain, bob.bech32)).toEqual([`5${DENOM}`]);
    // Not for older heights.
    const { ctx: old } = chain.app.createQueryContext(chain.height - 1);
    expect(chain.app.manager.keeper<BankKeeper>('bank').cachedDenoms(old, bob.address)).toBeUndefined();
  });

  test('a second denom appears; a denom that drops to zero disappears', async () => {
    await chain.block([send(alice, aliceSeq++, bob.bech32, 7n, STAKE)]);
    // in denom order, as the store keys sort
    expect(await balances(chain, bob.bech32)).toEqual([`5${DENOM}`, `7${STAKE}`]);
    const withBoth = chain.height;
    expect(await balances(chain, bob.bech32)).toHaveLength(2);
    // bob sends all his stake back
    const back = await chain.block([send(bob, 0n, alice.bech32, 7n, STAKE, await accountNumber(bob.bech32))]);
    expect(back.txResults[0]!.code).toBe(0);
    expect(await balances(chain, bob.bech32)).toEqual([`5${DENOM}`]);
    // the past is read from the store as it was
    expect(await balances(chain, bob.bech32, withBoth)).toHaveLength(2);
    // a page smaller than the list falls back to the paginated scan
    expect(await balances(chain, alice.bech32, 0, 1n)).toHaveLength(1);
  });

  test('a query between FinalizeBlock and Commit sees the committed state and caches nothing stale', async () => {
    expect(await balances(chain, carol.bech32)).toEqual([]);
    const height = chain.height + 1;
    await chain.app.finalizeBlock({
      txs: [send(alice, aliceSeq++, carol.bech32, 3n, STAKE)],
      decidedLastCommit: { round: 0, votes: [] },
      misbehavior: [],
      hash: sha256(new TextEncoder().encode(`block-${height}`)),
      height,
      time: new Date(GENESIS_TIME.getTime() + height * 1000),
      nextValidatorsHash: new Uint8Array(32),
      proposerAddress: new Uint8Array(20),
    });
    expect(await balances(chain, carol.bech32)).toEqual([]);
    await chain.app.commit();
    chain.height = height;
    expect(await balances(chain, carol.bech32)).toEqual([`3${STAKE}`]);
  });
});
