/**
 * Where the gRPC servers of grpc.test.ts listen: on the test's thread (default) or on a thread of
 * their own ([grpc] http-thread; grpc.thread.test.ts sets it before loading the suite).
 */
export const grpcMode = { thread: false };
