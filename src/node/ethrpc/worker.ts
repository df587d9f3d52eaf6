/**
 * The Ethereum JSON-RPC's HTTP thread ([json-rpc] http-thread; threads/frontThread.ts starts it):
 * an EthFront whose backend is the main thread's EthRpcServer.answerHttp.
 */
import { serveFront } from '../threads/frontWorker.js';
import { EthFront, type EthAnswer, type EthFrontOptions, type EthRequest } from './front.js';

serveFront<EthFrontOptions, EthRequest, EthAnswer>((c) => new EthFront(c.options, c.ask, c.stateHeight, c.logger, c.changed));
