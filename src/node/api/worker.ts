/**
 * The REST gateway's thread ([api] http-thread; threads/frontThread.ts starts it): a RestFront
 * whose backend is the main thread's ApiServer.handle.
 */
import { serveFront } from '../threads/frontWorker.js';
import { RestFront, type RestAnswer, type RestFrontOptions, type RestRequest } from './front.js';

serveFront<RestFrontOptions, RestRequest, RestAnswer>((options, ask, stateHeight, logger, changed) => new RestFront(options, ask, stateHeight, logger, changed));
