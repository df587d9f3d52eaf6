/**
 * The CometBFT RPC's HTTP thread ([rpc] http_thread; threads/frontThread.ts starts it): an RpcFront
 * whose backend is the main thread's RpcServer.answerHttp, and whose websocket frames go there as
 * notes and come back as pushes.
 */
import { serveFront } from '../threads/frontWorker.js';
import { RpcFront, type RpcAnswer, type RpcFrontOptions, type RpcNote, type RpcPush, type RpcRequest } from './front.js';

serveFront<RpcFrontOptions, RpcRequest, RpcAnswer>((c) => {
  const front = new RpcFront(c.options, c.ask, c.stateHeight, (note: RpcNote) => c.note(note), c.logger, c.changed);
  c.onPush((push) => front.push(push as RpcPush));
  return front;
});
