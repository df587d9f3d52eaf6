/** The gRPC server (port 9090) over the node's QueryRouter, with server reflection. */
export { GrpcServer, GRPC_HEIGHT_HEADER, connectErrorOf, defaultGrpcOptions, encodeGrpcMessage, type GrpcAddress, type GrpcOptions, type GrpcServerConfig } from './server.js';
export { UnaryFastPath, parseHeightMetadata } from './unary.js';
export { ReflectionIndex, type ReflectionRequestLike, type ReflectionResponseInit } from './reflection.js';
