/**
 * The gRPC server's thread ([grpc] http-thread; threads/frontThread.ts starts it): a GrpcFront whose
 * unary calls go to the main thread's GrpcServer (UnaryFastPath.answer) and whose other streams go
 * to the main thread's private HTTP/2 server.
 */
import { serveFront } from '../threads/frontWorker.js';
import { GrpcFront, type GrpcFrontOptions, type UnaryAnswer, type UnaryCall } from './front.js';

serveFront<GrpcFrontOptions, UnaryCall, UnaryAnswer>((c) => new GrpcFront(c.options, c.ask, c.stateHeight, c.logger, c.changed));
