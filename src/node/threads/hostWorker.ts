/**
 * A front host: the worker thread threads/frontHost.ts starts, in which the servers' fronts run —
 * the REST gateway's, the Ethereum JSON-RPC's, the CometBFT RPC's and gRPC's, as many as the main
 * thread opens here. Each comes as {t:'open', kind, data, port} with a message port of its own, and
 * is served over that port (frontWorker.ts) until it is stopped or its port is closed.
 *
 * One thread for several fronts loads Node's HTTP machinery and the fronts' code once, not once a
 * server: a node starts its servers ~0.2 s sooner and with ~0.4 s less CPU than with a thread each.
 */
import { parentPort, type MessagePort } from 'node:worker_threads';
import { RestFront, type RestAnswer, type RestFrontOptions, type RestRequest } from '../api/front.js';
import { EthFront, type EthAnswer, type EthFrontOptions, type EthRequest } from '../ethrpc/front.js';
import { GrpcFront, type GrpcFrontOptions, type UnaryAnswer, type UnaryCall } from '../grpc/front.js';
import { RpcFront, type RpcAnswer, type RpcFrontOptions, type RpcNote, type RpcPush, type RpcRequest } from '../rpc/front.js';
import type { FrontKind, FrontWorkerData, HostMessage } from './frontHost.js';
import { serveFront } from './frontWorker.js';

function open(kind: FrontKind, port: MessagePort, data: FrontWorkerData<unknown>): void {
  switch (kind) {
    case 'rest':
      return serveFront<RestFrontOptions, RestRequest, RestAnswer>(port, data as FrontWorkerData<RestFrontOptions>, (c) => new RestFront(c.options, c.ask, c.stateHeight, c.logger, c.changed));
    case 'eth':
      return serveFront<EthFrontOptions, EthRequest, EthAnswer>(port, data as FrontWorkerData<EthFrontOptions>, (c) => new EthFront(c.options, c.ask, c.stateHeight, c.logger, c.changed));
    case 'grpc':
      return serveFront<GrpcFrontOptions, UnaryCall, UnaryAnswer>(port, data as FrontWorkerData<GrpcFrontOptions>, (c) => new GrpcFront(c.options, c.ask, c.stateHeight, c.logger, c.changed));
    case 'rpc':
      return serveFront<RpcFrontOptions, RpcRequest, RpcAnswer>(port, data as FrontWorkerData<RpcFrontOptions>, (c) => {
        const front = new RpcFront(c.options, c.ask, c.stateHeight, (note: RpcNote) => c.note(note), c.logger, c.changed);
        c.onPush((push) => front.push(push as RpcPush));
        return front;
      });
  }
}

parentPort!.on('message', (message: HostMessage) => open(message.kind, message.port, message.data));
