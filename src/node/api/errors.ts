/**
 * Gateway errors (grpc-gateway v1 runtime/errors.go, COMPAT §5): the body is
 * {"code": <gRPC code>, "message": msg, "details": [], "error": msg} (the SDK 0.50 gateway's three
 * fields, plus grpc-gateway v1's "error" that the spec's model lists) and the HTTP status follows
 * the gRPC code.
 */
import { GrpcStatus, QueryError, isQueryError, type GrpcStatusCode } from '../services/types.js';

/** HTTP status of a gRPC code (runtime.HTTPStatusFromCode). */
export function httpStatusOfGrpc(code: number): number {
  switch (code) {
    case GrpcStatus.OK:
      return 200;
    case GrpcStatus.Canceled:
      return 408;
    case GrpcStatus.Unknown:
      return 500;
    case GrpcStatus.InvalidArgument:
      return 400;
    case GrpcStatus.DeadlineExceeded:
      return 504;
    case GrpcStatus.NotFound:
      return 404;
    case GrpcStatus.AlreadyExists:
      return 409;
    case GrpcStatus.PermissionDenied:
      return 403;
    case GrpcStatus.Unauthenticated:
      return 401;
    case GrpcStatus.ResourceExhausted:
      return 429;
    case GrpcStatus.FailedPrecondition:
      return 400;
    case GrpcStatus.Aborted:
      return 409;
    case GrpcStatus.OutOfRange:
      return 400;
    case GrpcStatus.Unimplemented:
      return 501;
    case GrpcStatus.Internal:
      return 500;
    case GrpcStatus.Unavailable:
      return 503;
    case GrpcStatus.DataLoss:
      return 500;
    default:
      return 500;
  }
}

export interface GatewayError {
  status: number;
  code: GrpcStatusCode;
  message: string;
}

/** Any thrown value as a gateway error (non-QueryErrors are Internal). */
export function gatewayErrorOf(err: unknown): GatewayError {
  const queryErr = isQueryError(err) ? err : new QueryError('Internal', err instanceof Error ? err.message : String(err), { cause: err });
  return { status: httpStatusOfGrpc(queryErr.grpcCode), code: queryErr.grpcCode, message: queryErr.message };
}

/** The JSON body of an error. */
export function gatewayErrorBody(code: number, message: string): string {
  return JSON.stringify({ code, message, details: [], error: message });
}
