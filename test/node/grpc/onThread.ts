/** Imported first by grpc.thread.test.ts: the suite's servers listen on a thread of their own. */
import { grpcMode } from './mode.js';

grpcMode.thread = true;
