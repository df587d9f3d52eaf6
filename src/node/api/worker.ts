/**
 * The REST gateway's thread ([api] http-thread; threads/frontThread.ts starts it): a RestFront
 * whose backend is the main thread's ApiServer.handle.
 */
import { serveFront } from '../threads/frontWorker.js';
import { RestFront, type RestAnswer, type RestFrontOptions, type RestRequest } from './front.js';

serveFront<RestFrontOptions, RestRequest, RestAnswer>((c) => new RestFront(c.options, c.ask, c.stateHeight, c.logger, c.changed));
