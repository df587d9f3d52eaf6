/**
 * x/auth parameters (x/auth/types/params.go) with the SDK defaults and validation texts.
 */
import { create } from '@bufbuild/protobuf';
import { ParamsSchema, type Params } from '../../../gen/cosmos/auth/v1beta1/auth_pb.js';

export type AuthParams = Params;

export const DEFAULT_MAX_MEMO_CHARACTERS = 256n;
export const DEFAULT_TX_SIG_LIMIT = 7n;
export const DEFAULT_TX_SIZE_COST_PER_BYTE = 10n;
export const DEFAULT_SIG_VERIFY_COST_ED25519 = 590n;
export const DEFAULT_SIG_VERIFY_COST_SECP256K1 = 1000n;

export function defaultAuthParams(): AuthParams {
  return create(ParamsSchema, {
    maxMemoCharacters: DEFAULT_MAX_MEMO_CHARACTERS,
    txSigLimit: DEFAULT_TX_SIG_LIMIT,
    txSizeCostPerByte: DEFAULT_TX_SIZE_COST_PER_BYTE,
    sigVerifyCostEd25519: DEFAULT_SIG_VERIFY_COST_ED25519,
    sigVerifyCostSecp256k1: DEFAULT_SIG_VERIFY_COST_SECP256K1,
  });
}

/** Params.Validate: the problems, worded as the SDK words them. */
export function validateAuthParams(params: AuthParams): string[] {
  const problems: string[] = [];
  if (params.maxMemoCharacters === 0n) problems.push(`invalid max memo characters: ${params.maxMemoCharacters}`);
  if (params.txSigLimit === 0n) problems.push(`invalid tx signature limit: ${params.txSigLimit}`);
  if (params.sigVerifyCostEd25519 === 0n) problems.push(`invalid ED25519 signature verification cost: ${params.sigVerifyCostEd25519}`);
  if (params.sigVerifyCostSecp256k1 === 0n) problems.push(`invalid SECK256k1 signature verification cost: ${params.sigVerifyCostSecp256k1}`);
  if (params.txSizeCostPerByte === 0n) problems.push(`invalid tx size cost per byte: ${params.txSizeCostPerByte}`);
  return problems;
}
