/**
 * Helpers over the cosmos.staking.v1beta1.Validator message: tokens and shares as bigints,
 * consensus power (tokens / 10^18), the consensus key and address, the ABCI update.
 */
import { create, fromBinary } from '@bufbuild/protobuf';
import { timestampFromDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import type { Any } from '@bufbuild/protobuf/wkt';
import { PubKeySchema as Ed25519PubKeySchema } from '../../../gen/cosmos/crypto/ed25519/keys_pb.js';
import { PubKeySchema as Secp256k1PubKeySchema } from '../../../gen/cosmos/crypto/secp256k1/keys_pb.js';
import { BondStatus, CommissionRatesSchema, CommissionSchema, ValidatorSchema, type Description, type Validator } from '../../../gen/cosmos/staking/v1beta1/staking_pb.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import type { ValidatorUpdate } from '../../abci/types.js';
import { sha256 } from '../../../keyring/hash.js';
import { parseValAddress } from '../shared/address.js';
import { parseInt256 } from '../shared/coins.js';
import { decFromInt, decFromWire, decMulInt, decQuo, decQuoInt, decToWire, type Dec } from '../shared/dec.js';
import { POWER_REDUCTION } from './params.js';

export { BondStatus };

export const BOND_STATUS_NAMES: Readonly<Record<string, BondStatus>> = {
  BOND_STATUS_UNBONDED: BondStatus.UNBONDED,
  BOND_STATUS_UNBONDING: BondStatus.UNBONDING,
  BOND_STATUS_BONDED: BondStatus.BONDED,
};

export interface ConsensusKey {
  type: 'ed25519' | 'secp256k1';
  key: Uint8Array;
}

export function validatorTokens(validator: Validator): bigint {
  return parseInt256(validator.tokens === '' ? '0' : validator.tokens) ?? 0n;
}

export function validatorShares(validator: Validator): Dec {
  return decFromWire(validator.delegatorShares) ?? 0n;
}

export function operatorAddress(validator: Validator): Uint8Array {
  const parsed = parseValAddress(validator.operatorAddress);
  if (!parsed.ok) throw new Error(`invalid validator operator address ${validator.operatorAddress}: ${parsed.error}`);
  return parsed.bytes;
}

export function potentialConsensusPower(validator: Validator): bigint {
  return validatorTokens(validator) / POWER_REDUCTION;
}

export function consensusPower(validator: Validator): bigint {
  return validator.status === BondStatus.BONDED ? potentialConsensusPower(validator) : 0n;
}

/** The consensus public key of an Any (ed25519 or secp256k1); throws for other types. */
export function consensusKeyOf(any: Any | undefined): ConsensusKey {
  if (any === undefined) throw new Error('validator has no consensus public key');
  if (any.typeUrl === `/${Ed25519PubKeySchema.typeName}`) return { type: 'ed25519', key: fromBinary(Ed25519PubKeySchema, any.value).key };
  if (any.typeUrl === `/${Secp256k1PubKeySchema.typeName}`) return { type: 'secp256k1', key: fromBinary(Secp256k1PubKeySchema, any.value).key };
  throw new Error(`unsupported consensus public key type ${any.typeUrl}`);
}

/** CometBFT address of a consensus key: sha256(ed25519)[:20] or ripemd160(sha256(secp256k1)). */
export function consensusAddressOf(key: ConsensusKey): Uint8Array {
  return key.type === 'ed25519' ? sha256(key.key).slice(0, 20) : ripemd160(sha256(key.key));
}

export function validatorConsAddress(validator: Validator): Uint8Array {
  return consensusAddressOf(consensusKeyOf(validator.consensusPubkey));
}

export function abciValidatorUpdate(validator: Validator, power: bigint = consensusPower(validator)): ValidatorUpdate {
  const key = consensusKeyOf(validator.consensusPubkey);
  return { pubKeyType: key.type, pubKey: key.key, power };
}

/** types.NewValidator: unbonded, no tokens or shares, unbonding time = Unix epoch. */
export function newValidator(operator: string, consensusPubkey: Any, description: Description): Validator {
  return create(ValidatorSchema, {
    operatorAddress: operator,
    consensusPubkey,
    jailed: false,
    status: BondStatus.UNBONDED,
    tokens: '0',
    delegatorShares: '0',
    description,
    unbondingHeight: 0n,
    unbondingTime: timestampFromDate(new Date(0)),
    commission: create(CommissionSchema, { commissionRates: create(CommissionRatesSchema, { rate: '0', maxRate: '0', maxChangeRate: '0' }), updateTime: timestampFromDate(new Date(0)) }),
    minSelfDelegation: '1',
    unbondingOnHoldRefCount: 0n,
    unbondingIds: [],
  });
}

/** AddTokensFromDel: issues shares at the current exchange rate (1:1 for the first delegation). */
export function addTokensFromDelegation(validator: Validator, amount: bigint): { validator: Validator; issuedShares: Dec } {
  const tokens = validatorTokens(validator);
  const shares = validatorShares(validator);
  const issuedShares = shares === 0n ? decFromInt(amount) : decQuoInt(decMulInt(shares, amount), tokens);
  const updated = create(ValidatorSchema, { ...validator, tokens: (tokens + amount).toString(), delegatorShares: decToWire(shares + issuedShares) });
  return { validator: updated, issuedShares };
}

/** TokensFromShares (a Dec; truncate for coin amounts). */
export function tokensFromShares(validator: Validator, shares: Dec): Dec {
  const total = validatorShares(validator);
  if (total === 0n) return 0n;
  return decQuo(decMulInt(shares, validatorTokens(validator)), total);
}

export function withStatus(validator: Validator, status: BondStatus, changes: { unbondingHeight?: bigint; unbondingTime?: Timestamp } = {}): Validator {
  return create(ValidatorSchema, { ...validator, status, ...changes });
}
