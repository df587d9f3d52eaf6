/**
 * The messages of `tx authz grant|revoke|exec` and `tx feegrant grant`, built from what a user
 * types (x/authz/client/cli and x/feegrant/client/cli of SDK 0.47, with the same argument forms).
 * Every problem is one TokendError naming the argument (exit code 2); nothing is sent.
 */
import { create, type MessageShape } from '@bufbuild/protobuf';
import { durationFromMs, timestampFromMs, type Any, type Timestamp } from '@bufbuild/protobuf/wkt';
import { GenericAuthorizationSchema, GrantSchema } from '../../gen/cosmos/authz/v1beta1/authz_pb.js';
import { MsgExecSchema, MsgGrantSchema, MsgRevokeSchema } from '../../gen/cosmos/authz/v1beta1/tx_pb.js';
import { SendAuthorizationSchema } from '../../gen/cosmos/bank/v1beta1/authz_pb.js';
import { CoinSchema } from '../../gen/cosmos/base/v1beta1/coin_pb.js';
import { AllowedMsgAllowanceSchema, BasicAllowanceSchema, PeriodicAllowanceSchema } from '../../gen/cosmos/feegrant/v1beta1/feegrant_pb.js';
import { MsgGrantAllowanceSchema } from '../../gen/cosmos/feegrant/v1beta1/tx_pb.js';
import { AuthorizationType, StakeAuthorization_ValidatorsSchema, StakeAuthorizationSchema } from '../../gen/cosmos/staking/v1beta1/authz_pb.js';
import { parseAddress, toAccountAddress } from '../../keyring/address.js';
import { TokendError } from '../../util/errors.js';
import { parseValAddress } from '../modules/shared/address.js';
import { parseCoins } from './coins.js';
import { packMessage } from './tx.js';

export const AUTHORIZATION_TYPES = ['generic', 'send', 'delegate', 'unbond', 'redelegate'] as const;
export type AuthorizationTypeName = (typeof AUTHORIZATION_TYPES)[number];

function invalid(message: string, hint?: string): TokendError {
  return new TokendError('INVALID_ARGUMENT', message, { exitCode: 2, ...(hint === undefined ? {} : { hint }) });
}

/** An account address typed as bech32 or 0x hex, as bech32. */
export function accountArg(name: string, text: string): string {
  try {
    return toAccountAddress(parseAddress(text));
  } catch (err) {
    throw invalid(`invalid ${name} address "${text}": ${err instanceof Error ? err.message : String(err)}`, 'pass a token1… (or 0x…) account address');
  }
}

function list(text: string | undefined): string[] {
  return text === undefined ? [] : text.split(',').map((part) => part.trim()).filter((part) => part !== '');
}

/** --expiration: Unix seconds or an RFC 3339 time; must lie after `nowMs`. */
export function parseExpiration(text: string | undefined, nowMs: number): Timestamp | undefined {
  if (text === undefined) return undefined;
  const ms = /^\d+$/.test(text.trim()) ? Number(text.trim()) * 1000 : Date.parse(text);
  if (!Number.isFinite(ms) || /^\s*$/.test(text)) throw invalid(`invalid --expiration "${text}"`, 'pass Unix seconds (e.g. 1767225600) or an RFC 3339 time (e.g. 2026-12-31T00:00:00Z)');
  if (ms <= nowMs) throw invalid(`--expiration ${new Date(ms).toISOString()} is not in the future`);
  return timestampFromMs(ms);
}

/** --period: seconds, or a number with a unit (500ms, 30s, 10m, 24h). */
export function parsePeriodMs(text: string): number {
  const match = /^\s*(\d+)\s*(ms|s|m|h)?\s*$/.exec(text);
  if (match === null) throw invalid(`invalid --period "${text}"`, 'pass seconds (e.g. 3600) or a duration such as 30s, 10m, 24h');
  const value = Number(match[1]);
  const unit = match[2] ?? 's';
  const ms = unit === 'ms' ? value : unit === 's' ? value * 1000 : unit === 'm' ? value * 60_000 : value * 3_600_000;
  if (ms <= 0) throw invalid(`--period must be positive, got "${text}"`);
  return ms;
}

function coins(flag: string, text: string): MessageShape<typeof CoinSchema>[] {
  let parsed;
  try {
    parsed = parseCoins(text);
  } catch (err) {
    throw invalid(`invalid --${flag} "${text}": ${err instanceof Error ? err.message : String(err)}`, 'pass coins such as 1000attotoken');
  }
  if (parsed.length === 0 || parsed.some((coin) => coin.amount <= 0n)) throw invalid(`--${flag} must be positive, got "${text}"`);
  return parsed.map((coin) => create(CoinSchema, { denom: coin.denom, amount: coin.amount.toString() }));
}

export interface AuthzGrantInput {
  granter: string;
  grantee: string;
  type: string;
  msgType?: string;
  spendLimit?: string;
  allowList?: string;
  expiration?: string;
  allowedValidators?: string;
  denyValidators?: string;
  nowMs: number;
}

function validators(flag: string, text: string | undefined): string[] {
  const addresses = list(text);
  for (const address of addresses) {
    const parsed = parseValAddress(address);
    if (!parsed.ok) throw invalid(`invalid validator address "${address}" in --${flag}: ${parsed.error}`, 'pass tokenvaloper1… addresses separated by commas');
  }
  return addresses;
}

/** MsgGrant for `tx authz grant <grantee> <generic|send|delegate|unbond|redelegate>`. */
export function buildAuthzGrant(input: AuthzGrantInput): Any {
  const grantee = accountArg('grantee', input.grantee);
  if (grantee === input.granter) throw invalid('grantee and granter should be different');
  const type = input.type as AuthorizationTypeName;
  if (!AUTHORIZATION_TYPES.includes(type)) throw invalid(`invalid authorization type "${input.type}"`, `use one of ${AUTHORIZATION_TYPES.join(', ')}`);
  let authorization: Any;
  switch (type) {
    case 'generic': {
      const msg = input.msgType?.trim() ?? '';
      if (!msg.startsWith('/')) throw invalid('generic authorization needs --msg-type, the type URL of the message (e.g. /cosmos.gov.v1beta1.MsgVote)');
      authorization = packMessage(GenericAuthorizationSchema, create(GenericAuthorizationSchema, { msg }));
      break;
    }
    case 'send': {
      if (input.spendLimit === undefined) throw invalid('send authorization needs --spend-limit', 'e.g. --spend-limit 1000attotoken');
      const allowList = list(input.allowList).map((address) => accountArg('--allow-list', address));
      if (new Set(allowList).size !== allowList.length) throw invalid('--allow-list names an address twice');
      authorization = packMessage(SendAuthorizationSchema, create(SendAuthorizationSchema, { spendLimit: coins('spend-limit', input.spendLimit), allowList }));
      break;
    }
    default: {
      const allowed = validators('allowed-validators', input.allowedValidators);
      const denied = validators('deny-validators', input.denyValidators);
      if (allowed.length > 0 && denied.length > 0) throw invalid('cannot set both --allowed-validators and --deny-validators');
      if (allowed.length === 0 && denied.length === 0) throw invalid('a staking authorization needs --allowed-validators or --deny-validators');
      let maxTokens: MessageShape<typeof CoinSchema> | undefined;
      if (input.spendLimit !== undefined) {
        const limit = coins('spend-limit', input.spendLimit);
        if (limit.length !== 1) throw invalid('--spend-limit of a staking authorization is one coin (the bond denom)');
        maxTokens = limit[0];
      }
      const authorizationType = type === 'delegate' ? AuthorizationType.DELEGATE : type === 'unbond' ? AuthorizationType.UNDELEGATE : AuthorizationType.REDELEGATE;
      const stake = create(StakeAuthorizationSchema, {
        maxTokens,
        authorizationType,
        validators:
          allowed.length > 0
            ? { case: 'allowList', value: create(StakeAuthorization_ValidatorsSchema, { address: allowed }) }
            : { case: 'denyList', value: create(StakeAuthorization_ValidatorsSchema, { address: denied }) },
      });
      authorization = packMessage(StakeAuthorizationSchema, stake);
    }
  }
  const grant = create(GrantSchema, { authorization, expiration: parseExpiration(input.expiration, input.nowMs) });
  return packMessage(MsgGrantSchema, create(MsgGrantSchema, { granter: input.granter, grantee, grant }));
}

/** MsgRevoke for `tx authz revoke <grantee> <msg-type-url>`. */
export function buildAuthzRevoke(granter: string, granteeText: string, msgTypeUrl: string): Any {
  const grantee = accountArg('grantee', granteeText);
  if (!msgTypeUrl.startsWith('/')) throw invalid(`invalid message type URL "${msgTypeUrl}"`, 'e.g. /cosmos.bank.v1beta1.MsgSend');
  return packMessage(MsgRevokeSchema, create(MsgRevokeSchema, { granter, grantee, msgTypeUrl }));
}

/** MsgExec of `grantee` carrying the messages of a generated tx. */
export function buildAuthzExec(grantee: string, msgs: readonly Any[]): Any {
  if (msgs.length === 0) throw invalid('the tx file has no messages to execute');
  return packMessage(MsgExecSchema, create(MsgExecSchema, { grantee, msgs: [...msgs] }));
}

export interface FeeAllowanceInput {
  granter: string;
  grantee: string;
  spendLimit?: string;
  expiration?: string;
  period?: string;
  periodLimit?: string;
  allowedMessages?: string;
  nowMs: number;
}

/** MsgGrantAllowance for `tx feegrant grant <granter> <grantee>`: basic, periodic, optionally restricted to messages. */
export function buildFeeAllowance(input: FeeAllowanceInput): Any {
  const grantee = accountArg('grantee', input.grantee);
  if (grantee === input.granter) throw invalid('cannot self-grant fee authorization');
  const basic = create(BasicAllowanceSchema, {
    spendLimit: input.spendLimit === undefined ? [] : coins('spend-limit', input.spendLimit),
    expiration: parseExpiration(input.expiration, input.nowMs),
  });
  let allowance: Any = packMessage(BasicAllowanceSchema, basic);
  if (input.period !== undefined || input.periodLimit !== undefined) {
    if (input.period === undefined || input.periodLimit === undefined) throw invalid('a periodic allowance needs both --period and --period-limit');
    const periodMs = parsePeriodMs(input.period);
    const periodLimit = coins('period-limit', input.periodLimit);
    if (basic.spendLimit.length > 0) {
      const basicDenoms = new Set(basic.spendLimit.map((coin) => coin.denom));
      for (const coin of periodLimit) {
        if (!basicDenoms.has(coin.denom)) throw invalid(`--period-limit denom ${coin.denom} is not in --spend-limit`);
        const total = BigInt(basic.spendLimit.find((c) => c.denom === coin.denom)!.amount);
        if (BigInt(coin.amount) > total) throw invalid('--period-limit cannot exceed --spend-limit');
      }
    }
    if (basic.expiration !== undefined && input.nowMs + periodMs > Number(basic.expiration.seconds) * 1000) throw invalid('--period cannot be longer than the time left until --expiration');
    const periodic = create(PeriodicAllowanceSchema, {
      basic,
      period: durationFromMs(periodMs),
      periodSpendLimit: periodLimit,
      periodCanSpend: periodLimit,
      periodReset: timestampFromMs(input.nowMs + periodMs),
    });
    allowance = packMessage(PeriodicAllowanceSchema, periodic);
  }
  const allowed = list(input.allowedMessages);
  if (input.allowedMessages !== undefined) {
    if (allowed.length === 0) throw invalid('--allowed-messages is empty');
    for (const url of allowed) if (!url.startsWith('/')) throw invalid(`invalid message type URL "${url}" in --allowed-messages`, 'e.g. /cosmos.bank.v1beta1.MsgSend');
    allowance = packMessage(AllowedMsgAllowanceSchema, create(AllowedMsgAllowanceSchema, { allowance, allowedMessages: allowed }));
  }
  return packMessage(MsgGrantAllowanceSchema, create(MsgGrantAllowanceSchema, { granter: input.granter, grantee, allowance }));
}
