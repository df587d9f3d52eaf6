/** The events of a MsgSend, exactly as COMPAT §4 lists them (SDK 0.50 order, msg_index, index:true). */
import { FEE_COLLECTOR_NAME } from '../../../src/node/modules/auth/keys.js';
import { accString, moduleAddress } from '../../../src/node/modules/shared/address.js';
import { TOKEN, buildAppState, msgSend, signTx, startChain, testKey, type Chain } from './helpers.js';
import { fromBinary, toBinary } from '@bufbuild/protobuf';
import { TxMsgDataSchema } from '../../../src/gen/cosmos/base/abci/v1beta1/abci_pb.js';
import { TxRawSchema } from '../../../src/gen/cosmos/tx/v1beta1/tx_pb.js';

const alice = testKey('alice');
const bob = testKey('bob');
const validator = testKey('validator');
const feeCollector = accString(moduleAddress(FEE_COLLECTOR_NAME));

type Flat = [string, [string, string][]];

function flatten(events: { type: string; attributes: { key: string; value: string; index: boolean }[] }[]): Flat[] {
  return events.map((event) => [event.type, event.attributes.map((attr) => [attr.key, attr.value] as [string, string])]);
}

describe('MsgSend events', () => {
  let chain: Chain;

  beforeEach(async () => {
    chain = await startChain(buildAppState({ accounts: [[alice, 1000n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN }));
  });

  afterEach(async () => {
    await chain.close();
  });

  test('with a fee: fee transfer, tx{fee}, acc_seq, signature, then the message events with msg_index', async () => {
    const tx = signTx({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, 12345n)], sequence: 0n, accountNumber: 0n, fee: 4000n });
    const signature = Buffer.from(fromBinary(TxRawSchema, tx).signatures[0]!).toString('base64');
    const result = (await chain.block([tx])).txResults[0]!;
    expect(result.code).toBe(0);
    expect(flatten(result.events)).toEqual([
      ['coin_spent', [['spender', alice.bech32], ['amount', '4000attotoken']]],
      ['coin_received', [['receiver', feeCollector], ['amount', '4000attotoken']]],
      ['transfer', [['recipient', feeCollector], ['sender', alice.bech32], ['amount', '4000attotoken']]],
      ['message', [['sender', alice.bech32]]],
      ['tx', [['fee', '4000attotoken'], ['fee_payer', alice.bech32]]],
      ['tx', [['acc_seq', `${alice.bech32}/0`]]],
      ['tx', [['signature', signature]]],
      ['message', [['action', '/cosmos.bank.v1beta1.MsgSend'], ['sender', alice.bech32], ['module', 'bank'], ['msg_index', '0']]],
      ['coin_spent', [['spender', alice.bech32], ['amount', '12345attotoken'], ['msg_index', '0']]],
      ['coin_received', [['receiver', bob.bech32], ['amount', '12345attotoken'], ['msg_index', '0']]],
      ['transfer', [['recipient', bob.bech32], ['sender', alice.bech32], ['amount', '12345attotoken'], ['msg_index', '0']]],
      ['message', [['sender', alice.bech32], ['msg_index', '0']]],
    ]);
    expect(result.events.every((event) => event.attributes.every((attr) => attr.index))).toBe(true);
  });

  test('without a fee: no fee transfer events and tx.fee is ""; two messages get msg_index 0 and 1', async () => {
    const tx = signTx({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, 1n), msgSend(alice.bech32, validator.bech32, 2n)], sequence: 0n, accountNumber: 0n });
    const result = (await chain.block([tx])).txResults[0]!;
    expect(result.code).toBe(0);
    const data = fromBinary(TxMsgDataSchema, result.data);
    expect(data.msgResponses.map((any) => any.typeUrl)).toEqual(['/cosmos.bank.v1beta1.MsgSendResponse', '/cosmos.bank.v1beta1.MsgSendResponse']);
    expect(Buffer.from(result.data)).toEqual(Buffer.from(toBinary(TxMsgDataSchema, data)));
    const flat = flatten(result.events);
    expect(flat[0]).toEqual(['tx', [['fee', ''], ['fee_payer', alice.bech32]]]);
    expect(flat[1]).toEqual(['tx', [['acc_seq', `${alice.bech32}/0`]]]);
    expect(flat[2]![0]).toBe('tx');
    expect(flat.slice(3).map(([type, attrs]) => `${type}:${attrs.find(([key]) => key === 'msg_index')?.[1]}`)).toEqual([
      'message:0',
      'coin_spent:0',
      'coin_received:0',
      'transfer:0',
      'message:0',
      'message:1',
      'coin_spent:1',
      'coin_received:1',
      'transfer:1',
      'message:1',
    ]);
  });

  test('index-events limits which attributes are indexed', async () => {
    await chain.close();
    chain = await startChain(buildAppState({ accounts: [[alice, 1000n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN }), {
      appOptions: { indexEvents: ['transfer.recipient', 'message.action'] },
    });
    const tx = signTx({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, 1n)], sequence: 0n, accountNumber: 0n });
    const result = (await chain.block([tx])).txResults[0]!;
    const indexed = result.events.flatMap((event) => event.attributes.filter((attr) => attr.index).map((attr) => `${event.type}.${attr.key}`));
    expect(indexed).toEqual(['message.action', 'transfer.recipient']);
  });
});
