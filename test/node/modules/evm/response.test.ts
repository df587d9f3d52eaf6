import { describe, expect, it } from '@jest/globals';
import { create, toBinary } from '@bufbuild/protobuf';
import { LogSchema } from '../../../../src/gen/ethermint/evm/v1/evm_pb.js';
import { MsgEthereumTxResponseSchema } from '../../../../src/gen/ethermint/evm/v1/tx_pb.js';
import { encodeEthereumTxResponse } from '../../../../src/node/modules/evm/response.js';

const hex = (byte: number, n: number) => '0x' + byte.toString(16).padStart(2, '0').repeat(n);

describe('MsgEthereumTxResponse by hand', () => {
  const logs = [
    create(LogSchema, {}),
    create(LogSchema, { address: '0xAbCd000000000000000000000000000000000001', topics: [hex(1, 32), hex(2, 32), hex(3, 32)], data: new Uint8Array(32).fill(9), blockNumber: 12n, txHash: hex(0xab, 32) }),
    create(LogSchema, { address: '0x00000000000000000000000000000000000000ff', topics: [], data: new Uint8Array(300).fill(1), blockNumber: 2n ** 63n, txHash: hex(0xcd, 32), txIndex: 7n, blockHash: hex(0xef, 32), index: 300n, removed: true }),
    create(LogSchema, { topics: [''], blockNumber: 127n, txIndex: 128n, index: 2n ** 64n - 1n }),
  ];
  const cases = [
    create(MsgEthereumTxResponseSchema, {}),
    create(MsgEthereumTxResponseSchema, { hash: hex(0x11, 32), gasUsed: 21000n }),
    create(MsgEthereumTxResponseSchema, { hash: hex(0x11, 32), logs: [logs[1]!], ret: new Uint8Array(32).fill(0).map((_, i) => i % 2), gasUsed: 34371n }),
    create(MsgEthereumTxResponseSchema, { hash: hex(0x22, 32), logs, ret: new Uint8Array(200).fill(5), vmError: 'execution reverted', gasUsed: 2n ** 64n - 1n }),
    create(MsgEthereumTxResponseSchema, { hash: hex(0x33, 32), vmError: 'out of gas — ünicode', gasUsed: 1n }),
    create(MsgEthereumTxResponseSchema, { logs: [logs[0]!, logs[0]!], ret: new Uint8Array([0]) }),
  ];

  it('gives the bytes protobuf-es gives', () => {
    for (const response of cases) expect(Buffer.from(encodeEthereumTxResponse(response)).toString('hex')).toBe(Buffer.from(toBinary(MsgEthereumTxResponseSchema, response)).toString('hex'));
  });

  it('leaves a response with unknown fields to protobuf-es', () => {
    const response = create(MsgEthereumTxResponseSchema, { hash: hex(0x11, 32) });
    response.$unknown = [{ no: 99, wireType: 0, data: new Uint8Array([5]) }];
    expect(encodeEthereumTxResponse(response)).toEqual(toBinary(MsgEthereumTxResponseSchema, response));
  });
});
