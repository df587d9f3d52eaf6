/**
 * MsgEthereumTxResponse encoded by hand (the tx result's msg_responses entry of every Ethereum
 * tx): protobuf-es' reflective `toBinary` walked the response and each of its logs per tx. Same
 * bytes as `toBinary(MsgEthereumTxResponseSchema, response)` — fields in number order, proto3
 * defaults left out, each topic its own field (test/node/modules/evm/response.test.ts compares
 * them); a response carrying unknown fields goes to toBinary.
 */
import { toBinary } from '@bufbuild/protobuf';
import type { Log } from '../../../gen/ethermint/evm/v1/evm_pb.js';
import { MsgEthereumTxResponseSchema, type MsgEthereumTxResponse } from '../../../gen/ethermint/evm/v1/tx_pb.js';
import { ProtoWriter } from '../shared/proto.js';

function encodeLog(w: ProtoWriter, log: Log): void {
  w.stringField(1, log.address);
  for (const topic of log.topics) w.stringElement(2, topic);
  w.bytesField(3, log.data);
  w.uintField(4, log.blockNumber);
  w.stringField(5, log.txHash);
  w.uintField(6, log.txIndex);
  w.stringField(7, log.blockHash);
  w.uintField(8, log.index);
  if (log.removed) w.varint(9 << 3).varint(1);
}

export function encodeEthereumTxResponse(response: MsgEthereumTxResponse): Uint8Array {
  if (response.$unknown !== undefined && response.$unknown.length > 0) return toBinary(MsgEthereumTxResponseSchema, response);
  if (response.logs.some((log) => log.$unknown !== undefined && log.$unknown.length > 0)) return toBinary(MsgEthereumTxResponseSchema, response);
  const w = new ProtoWriter(128 + response.ret.length);
  w.stringField(1, response.hash);
  if (response.logs.length > 0) {
    for (const log of response.logs) {
      const inner = new ProtoWriter(256 + log.data.length);
      encodeLog(inner, log);
      w.messageField(2, inner.finish());
    }
  }
  w.bytesField(3, response.ret);
  w.stringField(4, response.vmError);
  w.uintField(5, response.gasUsed);
  return w.finish();
}
