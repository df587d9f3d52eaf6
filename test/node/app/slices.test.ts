/**
 * Block execution in slices (AppOptions.executionSliceMs): FinalizeBlock hands the event loop back
 * between slices, so a query issued while a block runs is answered before the block ends — from
 * committed state, never from the block in progress — and slicing changes no result.
 */
import { create, toBinary } from '@bufbuild/protobuf';
import { QueryBalanceRequestSchema, QueryBalanceResponseSchema } from '../../../src/gen/cosmos/bank/v1beta1/query_pb.js';
import { abciQuery, buildAppState, DENOM, msgSend, signTx, startChain, testKey, TOKEN, type Chain, type TestKey } from './helpers.js';

const SENDERS = 40;
const TXS_PER_SENDER = 5;

const senders: TestKey[] = Array.from({ length: SENDERS }, (_, i) => testKey(`slice-sender-${i}`));
const receiver = testKey('slice-receiver');
const validator = testKey('slice-validator');

function appState(): ReturnType<typeof buildAppState> {
  return buildAppState({ accounts: [...senders.map((key): [TestKey, bigint] => [key, 1000n * TOKEN]), [validator, 1000n * TOKEN]], validator, selfDelegation: 100n * TOKEN });
}

/** The block's txs: every sender sends 1 to the receiver TXS_PER_SENDER times (account numbers follow genesis order). */
function blockTxs(): Uint8Array[] {
  const txs: Uint8Array[] = [];
  for (let seq = 0; seq < TXS_PER_SENDER; seq++) {
    senders.forEach((signer, index) => {
      txs.push(signTx({ signer, msgs: [msgSend(signer.bech32, receiver.bech32, 1n)], sequence: BigInt(seq), accountNumber: BigInt(index) }));
    });
  }
  return txs;
}

async function receiverBalance(chain: Chain): Promise<string> {
  const request = toBinary(QueryBalanceRequestSchema, create(QueryBalanceRequestSchema, { address: receiver.bech32, denom: DENOM }));
  const { value } = await abciQuery(chain.app, '/cosmos.bank.v1beta1.Query/Balance', request, QueryBalanceResponseSchema);
  return value?.balance?.amount ?? 'missing';
}

describe('block execution in slices', () => {
  let sliced: Chain;
  let whole: Chain;

  beforeAll(async () => {
    sliced = await startChain(appState(), { appOptions: { executionSliceMs: 1 } });
    whole = await startChain(appState(), { appOptions: { executionSliceMs: 0 } });
    await sliced.block([]);
    await whole.block([]);
  });

  afterAll(async () => {
    await sliced?.close();
    await whole?.close();
  });

  test('a query issued during FinalizeBlock is answered before the block ends, from committed state; the results equal an unsliced run', async () => {
    const txs = blockTxs();
    const answers: string[] = [];
    let finalized = false;
    let mid: Promise<void> | undefined;
    // Issued once the block has started: it can only complete before FinalizeBlock if the block yields.
    setImmediate(() => {
      mid = receiverBalance(sliced).then((amount) => {
        answers.push(finalized ? `after:${amount}` : `during:${amount}`);
      });
    });
    const response = await sliced.app.finalizeBlock({
      txs,
      decidedLastCommit: { round: 0, votes: [] },
      misbehavior: [],
      hash: new Uint8Array(32).fill(7),
      height: 2,
      time: new Date('2024-01-01T00:00:10Z'),
      nextValidatorsHash: new Uint8Array(32),
      proposerAddress: new Uint8Array(20),
    });
    finalized = true;
    await mid;
    expect(answers).toEqual(['during:0']);
    expect(response.txResults.every((result) => result.code === 0)).toBe(true);
    await sliced.app.commit();
    sliced.height = 2;
    expect(await receiverBalance(sliced)).toBe(String(SENDERS * TXS_PER_SENDER));

    const reference = await whole.app.finalizeBlock({
      txs,
      decidedLastCommit: { round: 0, votes: [] },
      misbehavior: [],
      hash: new Uint8Array(32).fill(7),
      height: 2,
      time: new Date('2024-01-01T00:00:10Z'),
      nextValidatorsHash: new Uint8Array(32),
      proposerAddress: new Uint8Array(20),
    });
    await whole.app.commit();
    expect(Buffer.from(response.appHash).toString('hex')).toBe(Buffer.from(reference.appHash).toString('hex'));
    expect(response.txResults.map((result) => result.gasUsed)).toEqual(reference.txResults.map((result) => result.gasUsed));
  });

  test('without slices the same query waits for the whole block', async () => {
    const answers: string[] = [];
    let finalized = false;
    let mid: Promise<void> | undefined;
    setImmediate(() => {
      mid = receiverBalance(whole).then(() => void answers.push(finalized ? 'after' : 'during'));
    });
    const txs = blockTxs().map((_tx, i) => {
      const index = i % SENDERS;
      const signer = senders[index]!;
      return signTx({ signer, msgs: [msgSend(signer.bech32, receiver.bech32, 1n)], sequence: BigInt(TXS_PER_SENDER + Math.floor(i / SENDERS)), accountNumber: BigInt(index) });
    });
    await whole.block(txs);
    finalized = true;
    await new Promise((resolve) => setImmediate(resolve));
    await mid;
    expect(answers).toEqual(['after']);
  });
});
