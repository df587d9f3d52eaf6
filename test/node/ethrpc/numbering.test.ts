/**
 * The numbering of a block's Ethereum txs and logs (transactionIndex, logIndex), which receipts
 * (ethTxs) and eth_getLogs (blockLogs) share: over a block mixing Cosmos txs, a failed tx, an
 * Ethereum tx without logs and a Cosmos tx carrying two Ethereum txs.
 */
import { describe, expect, it } from '@jest/globals';
import type { AbciEvent, ExecTxResult } from '../../../src/node/abci/types.js';
import { EthBackend, ethTxsOfResults } from '../../../src/node/ethrpc/backend.js';
import type { RpcEnvironment } from '../../../src/node/rpc/environment.js';

const event = (type: string, ...attributes: [string, string][]): AbciEvent => ({ type, attributes: attributes.map(([key, value]) => ({ key, value, index: true })) });
const result = (code: number, events: AbciEvent[]): ExecTxResult => ({ code, data: new Uint8Array(0), log: '', info: '', gasWanted: 0n, gasUsed: 0n, events, codespace: '' });
const ethHash = (n: number): string => `0x${n.toString(16).padStart(64, '0')}`;
const stored = (n: number): string => JSON.stringify({ address: `0x${'Ab'.repeat(20)}`, topics: [ethHash(1000 + n)], data: Buffer.from([n]).toString('base64') });
const ethTx = (n: number, logs: number[], msgIndex = 0): AbciEvent[] => {
  const out = [event('message', ['action', '/ethermint.evm.v1.MsgEthereumTx'], ['msg_index', String(msgIndex)]), event('ethereum_tx', ['ethereumTxHash', ethHash(n)], ['txGasUsed', '21000'], ['msg_index', String(msgIndex)])];
  if (logs.length > 0) out.push(event('tx_log', ...logs.map((l): [string, string] => ['txLog', stored(l)]), ['msg_index', String(msgIndex)]));
  return out;
};

const results: ExecTxResult[] = [
  // 0: a bank send
  result(0, [event('coin_spent', ['amount', '1token']), event('message', ['action', '/cosmos.bank.v1beta1.MsgSend'])]),
  // 1: an Ethereum tx with two logs
  result(0, [event('tx', ['fee', '1token']), ...ethTx(1, [1, 2])]),
  // 2: a failed tx (its events are the ante's; not in the Ethereum view)
  result(5, [event('tx', ['fee', '1token']), ...ethTx(99, [99])]),
  // 3: an Ethereum tx without logs
  result(0, ethTx(2, [])),
  // 4: another Cosmos tx
  result(0, [event('message', ['action', '/cosmos.staking.v1beta1.MsgDelegate'])]),
  // 5: one Cosmos tx carrying two Ethereum txs, the first without logs
  result(0, [...ethTx(3, [], 0), ...ethTx(4, [3, 4, 5], 1)]),
  // 6: an Ethereum tx with one log
  result(0, ethTx(5, [6])),
];

describe('Ethereum tx and log numbering', () => {
  it('numbers txs in block order and logs across the block, skipping Cosmos and failed txs', () => {
    const walked = ethTxsOfResults(results);
    expect(walked.map((t) => [t.resultIndex, t.msgIndex, t.index, t.firstLogIndex, t.logs.length])).toEqual([
      [1, 0, 0, 0, 2],
      [3, 0, 1, 2, 0],
      [5, 0, 2, 2, 0],
      [5, 1, 3, 2, 3],
      [6, 0, 4, 5, 1],
    ]);
    // A tx_log belongs to the ethereum_tx before it (not to the message at its position).
    expect(walked[3]!.logs).toEqual([stored(3), stored(4), stored(5)]);
  });

  it('eth_getLogs renders the logs with those indices, whatever the filter keeps', () => {
    const blockHash = `0x${'cd'.repeat(32)}`;
    const env = { blockStore: { loadBlockMeta: () => ({ blockId: { hash: Buffer.from(blockHash.slice(2), 'hex') } }) } } as unknown as RpcEnvironment;
    const backend = new EthBackend(env);
    const logs = backend.blockLogs(7, results, () => true);
    expect(logs.map((l) => [l.transactionHash, l.transactionIndex, l.logIndex, l.data])).toEqual([
      [ethHash(1), '0x0', '0x0', '0x01'],
      [ethHash(1), '0x0', '0x1', '0x02'],
      [ethHash(4), '0x3', '0x2', '0x03'],
      [ethHash(4), '0x3', '0x3', '0x04'],
      [ethHash(4), '0x3', '0x4', '0x05'],
      [ethHash(5), '0x4', '0x5', '0x06'],
    ]);
    expect(logs[0]).toEqual({ address: `0x${'ab'.repeat(20)}`, topics: [ethHash(1001)], data: '0x01', blockNumber: '0x7', transactionHash: ethHash(1), transactionIndex: '0x0', blockHash, logIndex: '0x0', removed: false });
    // Logs passed over by the stored-JSON test keep their numbers for the others.
    const kept = backend.blockLogs(7, results, (s) => s === stored(5));
    expect(kept.map((l) => [l.transactionIndex, l.logIndex])).toEqual([['0x3', '0x4']]);
  });
});
