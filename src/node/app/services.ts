/**
 * App-level query services: cosmos.tx.v1beta1.Service (Simulate, TxDecode, TxEncode — the
 * block/tx lookups and broadcast belong to the RPC layer, which registers them on the same
 * registry) and cosmos.base.node.v1beta1.Service (Config, Status).
 *
 * Simulate (COMPAT §3.6): runs on a copy of the CheckTx state with an infinite gas meter, no
 * minimum fee and no signature check (the sequence IS checked). A failure is gRPC Unknown
 * "<log> With gas wanted: 'W' and gas used: 'U' " (ABCI code 6).
 */
import { create, toBinary } from '@bufbuild/protobuf';
import { timestampFromDate, type Any } from '@bufbuild/protobuf/wkt';
import { GasInfoSchema, ResultSchema } from '../../gen/cosmos/base/abci/v1beta1/abci_pb.js';
import { ConfigResponseSchema, Service as NodeService, StatusResponseSchema } from '../../gen/cosmos/base/node/v1beta1/query_pb.js';
import { Service as TxService, SimulateResponseSchema, TxDecodeResponseSchema, TxEncodeResponseSchema } from '../../gen/cosmos/tx/v1beta1/service_pb.js';
import { AuthInfoSchema, TxBodySchema, TxRawSchema, type Tx } from '../../gen/cosmos/tx/v1beta1/tx_pb.js';
import type { AbciEvent } from '../abci/types.js';
import { grpcError } from '../modules/shared/errors.js';
import { defineQueryService, type QueryServiceImpl } from '../modules/shared/module.js';
import { protoEvents, txFromRawBytes } from '../codec/txResponse.js';
import { decodeTx } from './tx.js';

export interface SimulationOutcome {
  ok: boolean;
  log: string;
  gasWanted: bigint;
  gasUsed: bigint;
  events: AbciEvent[];
  /** TxMsgData bytes. */
  data: Uint8Array;
  msgResponses: Any[];
}

export interface ServiceBackend {
  simulate(txBytes: Uint8Array): Promise<SimulationOutcome>;
  minGasPricesText(): string;
  pruning(): { keepRecent: number; interval: number };
  haltHeight(): number;
  status(): { earliestHeight: number; height: number; time: Date | undefined; appHash: Uint8Array; validatorHash: Uint8Array };
}

function txToRawBytes(tx: Tx): Uint8Array {
  return toBinary(
    TxRawSchema,
    create(TxRawSchema, {
      bodyBytes: tx.body === undefined ? new Uint8Array(0) : toBinary(TxBodySchema, tx.body),
      authInfoBytes: tx.authInfo === undefined ? new Uint8Array(0) : toBinary(AuthInfoSchema, tx.authInfo),
      signatures: tx.signatures,
    }),
  );
}

export function txQueryService(backend: ServiceBackend): QueryServiceImpl {
  return defineQueryService(TxService, {
    async simulate(request) {
      let txBytes = request.txBytes;
      if (txBytes.length === 0 && request.tx !== undefined) txBytes = txToRawBytes(request.tx);
      if (txBytes.length === 0) throw grpcError('InvalidArgument', 'empty txBytes is not allowed');
      const outcome = await backend.simulate(txBytes);
      // The submitted tx failed (undecodable, ante or message failure): a client mistake, so
      // InvalidArgument (REST 400, logged at debug), where the SDK answers Unknown (HTTP 500).
      if (!outcome.ok) throw grpcError('InvalidArgument', `${outcome.log} With gas wanted: '${outcome.gasWanted}' and gas used: '${outcome.gasUsed}' `);
      return create(SimulateResponseSchema, {
        gasInfo: create(GasInfoSchema, { gasWanted: outcome.gasWanted, gasUsed: outcome.gasUsed }),
        result: create(ResultSchema, { data: outcome.data, log: outcome.log, events: protoEvents(outcome.events), msgResponses: outcome.msgResponses }),
      });
    },

    async txDecode(request) {
      if (request.txBytes.length === 0) throw grpcError('InvalidArgument', 'invalid empty tx bytes');
      decodeTx(request.txBytes); // the SDK decoder's checks (throws "tx parse error")
      return create(TxDecodeResponseSchema, { tx: txFromRawBytes(request.txBytes) });
    },

    async txEncode(request) {
      if (request.tx === undefined) throw grpcError('InvalidArgument', 'invalid empty tx');
      return create(TxEncodeResponseSchema, { txBytes: txToRawBytes(request.tx) });
    },
  });
}

export function nodeQueryService(backend: ServiceBackend): QueryServiceImpl {
  return defineQueryService(NodeService, {
    async config() {
      const pruning = backend.pruning();
      return create(ConfigResponseSchema, {
        minimumGasPrice: backend.minGasPricesText(),
        pruningKeepRecent: String(pruning.keepRecent),
        pruningInterval: String(pruning.interval),
        haltHeight: BigInt(backend.haltHeight()),
      });
    },

    async status() {
      const status = backend.status();
      return create(StatusResponseSchema, {
        earliestStoreHeight: BigInt(status.earliestHeight),
        height: BigInt(status.height),
        timestamp: status.time === undefined ? undefined : timestampFromDate(status.time),
        appHash: status.appHash,
        validatorHash: status.validatorHash,
      });
    },
  });
}
