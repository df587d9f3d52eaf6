/**
 * The app in-process: InitChain with a genesis made by the app's helpers (funded EthAccount keys
 * and a gentx) → FinalizeBlock with signed bank sends → Commit → queries through the router.
 */
import { create, toBinary } from '@bufbuild/protobuf';
import { QueryAccountRequestSchema, QueryAccountResponseSchema } from '../../../src/gen/cosmos/auth/v1beta1/query_pb.js';
import { EthAccountSchema } from '../../../src/gen/ethermint/types/v1/account_pb.js';
import { QueryAllBalancesRequestSchema, QueryAllBalancesResponseSchema, QueryBalanceRequestSchema, QueryBalanceResponseSchema } from '../../../src/gen/cosmos/bank/v1beta1/query_pb.js';
import { QueryValidatorsRequestSchema, QueryValidatorsResponseSchema, QueryPoolRequestSchema, QueryPoolResponseSchema } from '../../../src/gen/cosmos/staking/v1beta1/query_pb.js';
import { fromBinary } from '@bufbuild/protobuf';
import { FEE_COLLECTOR_NAME } from '../../../src/node/modules/auth/keys.js';
import { accString, moduleAddress } from '../../../src/node/modules/shared/address.js';
import { CHAIN_ID, TOKEN, abciQuery, buildAppState, consensusKey, msgSend, signTx, startChain, tempLevelDb, testKey, type Chain } from './helpers.js';
import { openApp } from '../../../src/node/app/index.js';
import { chainDriver } from './helpers.js';

const alice = testKey('alice');
const bob = testKey('bob');
const validator = testKey('validator');

function appState() {
  return buildAppState({ accounts: [[alice, 1000n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN });
}

async function balance(chain: Chain, address: string, height = 0): Promise<bigint> {
  const { value } = await abciQuery(chain.app, '/cosmos.bank.v1beta1.Query/Balance', toBinary(QueryBalanceRequestSchema, create(QueryBalanceRequestSchema, { address, denom: 'attotoken' })), QueryBalanceResponseSchema, height);
  return BigInt(value!.balance!.amount);
}

async function account(chain: Chain, address: string): Promise<{ accountNumber: bigint; sequence: bigint; pubKeyType: string | undefined }> {
  const { value } = await abciQuery(chain.app, '/cosmos.auth.v1beta1.Query/Account', toBinary(QueryAccountRequestSchema, create(QueryAccountRequestSchema, { address })), QueryAccountResponseSchema);
  expect(value!.account!.typeUrl).toBe('/ethermint.types.v1.EthAccount');
  const eth = fromBinary(EthAccountSchema, value!.account!.value);
  return { accountNumber: eth.baseAccount!.accountNumber, sequence: eth.baseAccount!.sequence, pubKeyType: eth.baseAccount!.pubKey?.typeUrl };
}

describe('App over memoryDatabase', () => {
  let chain: Chain;

  beforeAll(async () => {
    chain = await startChain(appState());
  });

  afterAll(async () => {
    await chain.close();
  });

  test('InitChain returns the gentx validator with power = tokens / 10^18', () => {
    expect(chain.init.validators).toHaveLength(1);
    expect(chain.init.validators[0]!.power).toBe(100n);
    expect(chain.init.validators[0]!.pubKeyType).toBe('ed25519');
    expect(Buffer.from(chain.init.validators[0]!.pubKey)).toEqual(Buffer.from(consensusKey(validator.bech32)));
  });

  test('CheckTx before the first Commit sees the (empty) committed state, as the SDK', async () => {
    const tx = signTx({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, 1n)], sequence: 0n, accountNumber: 0n });
    const check = await chain.app.checkTx({ tx, type: 'new' });
    expect(check.code).toBe(9);
    expect(check.log).toBe(`fee payer address: ${alice.bech32} does not exist: unknown address`);
  });

  test('a signed bank send moves funds, charges the fee and bumps the sequence', async () => {
    const tx = signTx({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, 5n * TOKEN)], sequence: 0n, accountNumber: 0n, fee: 2000n, gas: 150_000n });
    const block = await chain.block([tx]);
    expect(block.txResults[0]!.log).toBe('');
    expect(block.txResults[0]!.code).toBe(0);
    expect(Buffer.from(block.txResults[0]!.data).toString('base64')).toBe('EiYKJC9jb3Ntb3MuYmFuay52MWJldGExLk1zZ1NlbmRSZXNwb25zZQ==');
    expect(block.txResults[0]!.gasUsed).toBeGreaterThan(21_000n);
    expect(block.txResults[0]!.gasWanted).toBe(150_000n);
    expect(await balance(chain, bob.bech32)).toBe(5n * TOKEN);
    expect(await balance(chain, alice.bech32)).toBe(1000n * TOKEN - 5n * TOKEN - 2000n);
    expect(await balance(chain, accString(moduleAddress(FEE_COLLECTOR_NAME)))).toBe(2000n);
    const acc = await account(chain, alice.bech32);
    expect(acc.sequence).toBe(1n);
    expect(acc.pubKeyType).toBe('/ethermint.crypto.v1.ethsecp256k1.PubKey');
    const bobAccount = await account(chain, bob.bech32);
    expect(bobAccount.sequence).toBe(0n);
    expect(bobAccount.pubKeyType).toBeUndefined();
    // Now committed: CheckTx accepts the next tx of alice.
    const next = signTx({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, 1n)], sequence: 1n, accountNumber: 0n, fee: 2000n, gas: 150_000n });
    const check = await chain.app.checkTx({ tx: next, type: 'new' });
    expect(check.log).toBe('');
    expect(check.code).toBe(0);
    expect(check.gasWanted).toBe(150_000n);
    expect(check.sender).toBe(Buffer.from(alice.address).toString('hex'));
  });

  test('AllBalances and the staking set answer through the router', async () => {
    const { value } = await abciQuery(chain.app, '/cosmos.bank.v1beta1.Query/AllBalances', toBinary(QueryAllBalancesRequestSchema, create(QueryAllBalancesRequestSchema, { address: bob.bech32 })), QueryAllBalancesResponseSchema);
    expect(value!.balances.map((c) => `${c.amount}${c.denom}`)).toEqual([`${5n * TOKEN}attotoken`]);
    expect(value!.pagination!.nextKey).toHaveLength(0);
    expect(value!.pagination!.total).toBe(1n);
    const validators = await abciQuery(chain.app, '/cosmos.staking.v1beta1.Query/Validators', toBinary(QueryValidatorsRequestSchema, create(QueryValidatorsRequestSchema, { status: 'BOND_STATUS_BONDED' })), QueryValidatorsResponseSchema);
    expect(validators.value!.validators).toHaveLength(1);
    expect(validators.value!.validators[0]!.operatorAddress).toBe(validator.valoper);
    expect(validators.value!.validators[0]!.tokens).toBe((100n * TOKEN).toString());
    const pool = await abciQuery(chain.app, '/cosmos.staking.v1beta1.Query/Pool', toBinary(QueryPoolRequestSchema, create(QueryPoolRequestSchema)), QueryPoolResponseSchema);
    expect(pool.value!.pool!.bondedTokens).toBe((100n * TOKEN).toString());
    expect(pool.value!.pool!.notBondedTokens).toBe('0');
  });

  test('queued CheckTx txs of one sender use seq, seq+1 and the CheckTx state resets after Commit', async () => {
    await chain.block([]); // drop the pending CheckTx state of the previous test
    const seq = (await account(chain, alice.bech32)).sequence;
    const txs = [0n, 1n, 2n].map((i) => signTx({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, 1n)], sequence: seq + i, accountNumber: 0n, fee: 0n }));
    for (const tx of txs) expect((await chain.app.checkTx({ tx, type: 'new' })).code).toBe(0);
    const replay = await chain.app.checkTx({ tx: txs[0]!, type: 'new' });
    expect(replay.code).toBe(32);
    expect(replay.log).toBe(`account sequence mismatch, expected ${seq + 3n}, got ${seq}: incorrect account sequence`);
    const block = await chain.block(txs);
    expect(block.txResults.map((r) => r.code)).toEqual([0, 0, 0]);
    expect((await account(chain, alice.bech32)).sequence).toBe(seq + 3n);
    // After Commit the CheckTx state is the committed one again.
    const next = signTx({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, 1n)], sequence: seq + 3n, accountNumber: 0n });
    expect((await chain.app.checkTx({ tx: next, type: 'new' })).code).toBe(0);
  });
});

describe('halt-height', () => {
  test('Commit at the halt height asks to halt; FinalizeBlock above it fails', async () => {
    const reasons: string[] = [];
    const chain = await startChain(appState(), { appOptions: { haltHeight: 2, onHalt: (reason) => reasons.push(reason) } });
    await chain.block([]);
    expect(reasons).toEqual([]);
    await chain.block([]);
    expect(reasons).toEqual(['halt per configuration height 2']);
    await expect(chain.block([])).rejects.toThrow('halt per configuration height 2 time 0');
    await chain.close();
  });
});

describe('proposals', () => {
  test('PrepareProposal keeps decodable txs within max bytes; ProcessProposal rejects undecodable ones', async () => {
    const chain = await startChain(appState());
    const txs = [0n, 1n, 2n].map((sequence) => signTx({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, 1n)], sequence, accountNumber: 0n }));
    const common = { localLastCommit: { round: 0, votes: [] }, misbehavior: [], height: 1, time: new Date(), nextValidatorsHash: new Uint8Array(0), proposerAddress: new Uint8Array(20) };
    const all = await chain.app.prepareProposal({ ...common, maxTxBytes: 1_000_000, txs: [txs[0]!, Uint8Array.of(1, 2, 3), txs[1]!, txs[2]!] });
    expect(all.txs).toEqual([txs[0], txs[1], txs[2]]);
    const two = await chain.app.prepareProposal({ ...common, maxTxBytes: txs[0]!.length + txs[1]!.length, txs });
    expect(two.txs).toHaveLength(2);
    const process = { proposedLastCommit: { round: 0, votes: [] }, misbehavior: [], hash: new Uint8Array(32), height: 1, time: new Date(), nextValidatorsHash: new Uint8Array(0), proposerAddress: new Uint8Array(20) };
    expect((await chain.app.processProposal({ ...process, txs })).status).toBe('accept');
    expect((await chain.app.processProposal({ ...process, txs: [...txs, Uint8Array.of(0xff)] })).status).toBe('reject');
    await chain.close();
  });
});

describe('App over LevelDB', () => {
  test('commits survive a restart with the same height and app hash', async () => {
    const level = await tempLevelDb();
    try {
      const chain = await startChain(appState(), { db: level.db });
      const tx = signTx({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, 7n)], sequence: 0n, accountNumber: 0n });
      const block = await chain.block([tx]);
      expect(block.txResults[0]!.code).toBe(0);
      await chain.block([]);
      const info = await chain.app.info({ version: '', blockVersion: 11n, p2pVersion: 8n, abciVersion: '2.0.0' });
      await chain.close();

      const db = await level.reopen();
      const reopened = await openApp(db, { chainId: CHAIN_ID, sigVerifyWorkers: 0 });
      const again = await reopened.app.info({ version: '', blockVersion: 11n, p2pVersion: 8n, abciVersion: '2.0.0' });
      expect(again.lastBlockHeight).toBe(2);
      expect(Buffer.from(again.lastBlockAppHash)).toEqual(Buffer.from(info.lastBlockAppHash));
      const resumed = chainDriver(reopened.app, reopened.store, db, chain.init, reopened.close);
      expect(await balance(resumed, bob.bech32)).toBe(7n);
      const tx2 = signTx({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, 3n)], sequence: 1n, accountNumber: 0n });
      expect((await resumed.block([tx2])).txResults[0]!.code).toBe(0);
      expect(await balance(resumed, bob.bech32)).toBe(10n);
      expect(await balance(resumed, bob.bech32, 2)).toBe(7n);
      await resumed.close();
    } finally {
      await level.cleanup();
    }
  });
});
