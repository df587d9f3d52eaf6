/**
 * The authorizations a grant can carry (x/authz's Authorization interface and its SDK 0.47
 * implementations): GenericAuthorization, bank's SendAuthorization and staking's
 * StakeAuthorization. Each names the message type it covers, validates itself, and decides
 * whether to accept one message — possibly returning an updated form of itself (a lower spend
 * limit) or asking to be deleted (the limit is used up).
 */
import { create, fromBinary, toBinary, type Message } from '@bufbuild/protobuf';
import { AnySchema, type Any } from '@bufbuild/protobuf/wkt';
import { GenericAuthorizationSchema, type GenericAuthorization } from '../../../gen/cosmos/authz/v1beta1/authz_pb.js';
import { SendAuthorizationSchema, type SendAuthorization } from '../../../gen/cosmos/bank/v1beta1/authz_pb.js';
import type { MsgSend } from '../../../gen/cosmos/bank/v1beta1/tx_pb.js';
import { AuthorizationType, StakeAuthorizationSchema, type StakeAuthorization } from '../../../gen/cosmos/staking/v1beta1/authz_pb.js';
import type { MsgBeginRedelegate, MsgDelegate, MsgUndelegate } from '../../../gen/cosmos/staking/v1beta1/tx_pb.js';
import { coinFromProto, coinToProto, coinsFromProto, coinsToProto, coinsToString, isValidCoins, subCoins } from '../shared/coins.js';
import type { Context } from '../shared/context.js';
import { SdkErrors, registerError } from '../shared/errors.js';
import { AuthzErrors } from './errors.js';

export const MSG_SEND_TYPE_URL = '/cosmos.bank.v1beta1.MsgSend';
export const MSG_DELEGATE_TYPE_URL = '/cosmos.staking.v1beta1.MsgDelegate';
export const MSG_UNDELEGATE_TYPE_URL = '/cosmos.staking.v1beta1.MsgUndelegate';
export const MSG_REDELEGATE_TYPE_URL = '/cosmos.staking.v1beta1.MsgBeginRedelegate';

/** bank's ErrDuplicateEntry (x/bank/types/errors.go), which SendAuthorization returns for a repeated allow-list address. */
const BankDuplicateEntry = registerError('bank', 8, 'duplicate entry');

/** Gas charged per allow/deny list entry looked at (x/authz gasCostPerIteration). */
export const GAS_COST_PER_ITERATION = 10;

/** What an authorization decided about one message (authz.AcceptResponse). */
export interface AcceptResponse {
  accept: boolean;
  /** The grant is used up: remove it. */
  delete: boolean;
  /** The authorization's new form (stored in place of the old one). */
  updated?: Any;
}

/** One decoded authorization. */
export interface Authorization {
  readonly typeUrl: string;
  /** Type URL of the message it covers. */
  msgTypeUrl(): string;
  /** Throws the SDK's error when the authorization is malformed. */
  validateBasic(): void;
  accept(ctx: Context, msgTypeUrl: string, msg: Message): AcceptResponse;
}

function pack<T extends Message>(schema: Parameters<typeof toBinary>[0], message: T): Any {
  return create(AnySchema, { typeUrl: `/${schema.typeName}`, value: toBinary(schema, message) });
}

class Generic implements Authorization {
  readonly typeUrl = `/${GenericAuthorizationSchema.typeName}`;
  constructor(readonly value: GenericAuthorization) {}
  msgTypeUrl(): string {
    return this.value.msg;
  }
  validateBasic(): void {}
  accept(): AcceptResponse {
    return { accept: true, delete: false };
  }
}

class Send implements Authorization {
  readonly typeUrl = `/${SendAuthorizationSchema.typeName}`;
  constructor(readonly value: SendAuthorization) {}
  msgTypeUrl(): string {
    return MSG_SEND_TYPE_URL;
  }
  validateBasic(): void {
    const limit = coinsFromProto(this.value.spendLimit);
    if (limit.length === 0) throw SdkErrors.InvalidCoins.wrap('spend limit cannot be nil');
    if (!isValidCoins(limit)) throw SdkErrors.InvalidCoins.wrap('spend limit must be positive');
    const seen = new Set<string>();
    for (const address of this.value.allowList) {
      if (seen.has(address)) throw BankDuplicateEntry.wrap(`${address} appears twice in the allow list`);
      seen.add(address);
    }
  }
  accept(ctx: Context, msgTypeUrl: string, msg: Message): AcceptResponse {
    if (msgTypeUrl !== MSG_SEND_TYPE_URL) throw SdkErrors.InvalidType.wrap('type mismatch');
    const send = msg as MsgSend;
    const left = subCoins(coinsFromProto(this.value.spendLimit), coinsFromProto(send.amount));
    if (left === undefined) throw SdkErrors.InsufficientFunds.wrap('requested amount is more than spend limit');
    // The allow list is checked before a used-up limit deletes the grant (later SDKs' order:
    // 0.47.0 deleted first, so the last send of a limit could go to any address).
    let allowed = false;
    for (const address of this.value.allowList) {
      ctx.gasMeter.consumeGas(GAS_COST_PER_ITERATION, 'send authorization');
      if (address === send.toAddress) {
        allowed = true;
        break;
      }
    }
    if (this.value.allowList.length > 0 && !allowed) throw SdkErrors.Unauthorized.wrap(`cannot send to ${send.toAddress} address`);
    if (left.length === 0) return { accept: true, delete: true };
    const updated = create(SendAuthorizationSchema, { spendLimit: coinsToProto(left), allowList: [...this.value.allowList] });
    return { accept: true, delete: false, updated: pack(SendAuthorizationSchema, updated) };
  }
}

const STAKE_MSG_TYPES: Readonly<Record<number, string>> = {
  [AuthorizationType.DELEGATE]: MSG_DELEGATE_TYPE_URL,
  [AuthorizationType.UNDELEGATE]: MSG_UNDELEGATE_TYPE_URL,
  [AuthorizationType.REDELEGATE]: MSG_REDELEGATE_TYPE_URL,
};

class Stake implements Authorization {
  readonly typeUrl = `/${StakeAuthorizationSchema.typeName}`;
  constructor(readonly value: StakeAuthorization) {}
  msgTypeUrl(): string {
    return STAKE_MSG_TYPES[this.value.authorizationType] ?? '';
  }
  validateBasic(): void {
    const max = this.value.maxTokens;
    if (max !== undefined) {
      const coin = coinFromProto(max);
      if (coin.amount < 0n) throw AuthzErrors.NegativeMaxTokens.wrap(`negative coin amount: ${max.amount}${max.denom}`);
    }
    if (STAKE_MSG_TYPES[this.value.authorizationType] === undefined) throw AuthzErrors.UnknownAuthorizationType.error();
  }
  accept(ctx: Context, msgTypeUrl: string, msg: Message): AcceptResponse {
    let validator: string;
    let amount: { denom: string; amount: string } | undefined;
    switch (msgTypeUrl) {
      case MSG_DELEGATE_TYPE_URL:
      case MSG_UNDELEGATE_TYPE_URL: {
        const m = msg as MsgDelegate | MsgUndelegate;
        validator = m.validatorAddress;
        amount = m.amount;
        break;
      }
      case MSG_REDELEGATE_TYPE_URL: {
        const m = msg as MsgBeginRedelegate;
        validator = m.validatorDstAddress;
        amount = m.amount;
        break;
      }
      default:
        throw SdkErrors.InvalidRequest.wrap('unknown msg type');
    }
    const validators = this.value.validators;
    const allowList = validators.case === 'allowList' ? validators.value.address : [];
    const denyList = validators.case === 'denyList' ? validators.value.address : [];
    let allowed = false;
    for (const address of allowList) {
      ctx.gasMeter.consumeGas(GAS_COST_PER_ITERATION, 'stake authorization');
      if (address === validator) {
        allowed = true;
        break;
      }
    }
    for (const address of denyList) {
      ctx.gasMeter.consumeGas(GAS_COST_PER_ITERATION, 'stake authorization');
      if (address === validator) throw SdkErrors.Unauthorized.wrap(`cannot delegate/undelegate to ${address} validator`);
    }
    if (allowList.length > 0 && !allowed) throw SdkErrors.Unauthorized.wrap(`cannot delegate/undelegate to ${validator} validator`);
    const max = this.value.maxTokens;
    if (max === undefined) return { accept: true, delete: false };
    const limit = coinFromProto(max);
    const requested = amount === undefined ? { denom: limit.denom, amount: 0n } : coinFromProto(amount);
    if (requested.denom !== limit.denom) throw SdkErrors.InvalidCoins.wrap(`invalid coin denominations; ${limit.denom}, ${requested.denom}`);
    const left = limit.amount - requested.amount;
    if (left < 0n) throw SdkErrors.InsufficientFunds.wrap(`requested amount ${coinsToString([requested])} is more than max tokens ${coinsToString([limit])}`);
    if (left === 0n) return { accept: true, delete: true };
    const updated = create(StakeAuthorizationSchema, { ...this.value, maxTokens: coinToProto({ denom: limit.denom, amount: left }) });
    return { accept: true, delete: false, updated: pack(StakeAuthorizationSchema, updated) };
  }
}

/** The authorization in an Any, or the SDK's error for a type that is not one. */
export function decodeAuthorization(any: Any | undefined): Authorization {
  if (any === undefined) throw SdkErrors.InvalidType.wrap('authorization is nil');
  try {
    switch (any.typeUrl) {
      case `/${GenericAuthorizationSchema.typeName}`:
        return new Generic(fromBinary(GenericAuthorizationSchema, any.value));
      case `/${SendAuthorizationSchema.typeName}`:
        return new Send(fromBinary(SendAuthorizationSchema, any.value));
      case `/${StakeAuthorizationSchema.typeName}`:
        return new Stake(fromBinary(StakeAuthorizationSchema, any.value));
    }
  } catch (err) {
    throw SdkErrors.UnpackAny.wrap(`${any.typeUrl}: ${err instanceof Error ? err.message : String(err)}`);
  }
  throw SdkErrors.InvalidType.wrap(`expected cosmos.authz.v1beta1.Authorization, got ${any.typeUrl}`);
}
