/**
 * The error registry as the app exposes it: SdkError roots per codespace ("sdk", "bank",
 * "staking"), gRPC status errors for queries and the ABCI mappings. Defined in
 * src/node/modules/shared/errors.ts so modules can throw them without depending on the app.
 */
export {
  GRPC_CODES,
  GrpcError,
  RegisteredError,
  SDK_CODESPACE,
  SdkError,
  SdkErrors,
  UNDEFINED_CODESPACE,
  abciInfo,
  grpcError,
  grpcToAbci,
  isGrpcError,
  isSdkError,
  lookupError,
  registerError,
  registeredErrors,
  toGrpcError,
  type GrpcCodeName,
} from '../modules/shared/errors.js';
export { BankErrors, BANK_CODESPACE } from '../modules/bank/errors.js';
export { StakingErrors, STAKING_CODESPACE } from '../modules/staking/errors.js';
