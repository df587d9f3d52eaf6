/** The messages of `tx authz grant|revoke|exec` and `tx feegrant grant` built from typed input, and their refusals. */
import { fromBinary } from '@bufbuild/protobuf';
import { timestampMs } from '@bufbuild/protobuf/wkt';
import { MsgExecSchema, MsgGrantSchema, MsgRevokeSchema } from '../../../src/gen/cosmos/authz/v1beta1/tx_pb.js';
import { SendAuthorizationSchema } from '../../../src/gen/cosmos/bank/v1beta1/authz_pb.js';
import { AllowedMsgAllowanceSchema, PeriodicAllowanceSchema } from '../../../src/gen/cosmos/feegrant/v1beta1/feegrant_pb.js';
import { MsgGrantAllowanceSchema } from '../../../src/gen/cosmos/feegrant/v1beta1/tx_pb.js';
import { AuthorizationType, StakeAuthorizationSchema } from '../../../src/gen/cosmos/staking/v1beta1/authz_pb.js';
import { buildAuthzExec, buildAuthzGrant, buildAuthzRevoke, buildFeeAllowance, parseExpiration, parsePeriodMs } from '../../../src/node/client/grants.js';
import { TokendError } from '../../../src/util/errors.js';
import { msgSend, testKey } from '../app/helpers.js';

const alice = testKey('grants-alice');
const bob = testKey('grants-bob');
const NOW = Date.parse('2026-01-01T00:00:00Z');

function refusal(fn: () => unknown): { message: string; exitCode: number | undefined } {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(TokendError);
    return { message: (err as TokendError).message, exitCode: (err as TokendError).exitCode };
  }
  throw new Error('expected a refusal');
}

describe('tx authz / tx feegrant message builders', () => {
  test('send grant with spend limit, allow list and expiration (Unix seconds or RFC 3339)', () => {
    const any = buildAuthzGrant({ granter: alice.bech32, grantee: bob.bech32, type: 'send', spendLimit: '1000attotoken', allowList: `${alice.bech32}`, expiration: '1767312000', nowMs: NOW });
    const msg = fromBinary(MsgGrantSchema, any.value);
    expect([msg.granter, msg.grantee]).toEqual([alice.bech32, bob.bech32]);
    const send = fromBinary(SendAuthorizationSchema, msg.grant!.authorization!.value);
    expect(send.spendLimit.map((c) => `${c.amount}${c.denom}`)).toEqual(['1000attotoken']);
    expect(send.allowList).toEqual([alice.bech32]);
    expect(timestampMs(msg.grant!.expiration!)).toBe(1767312000_000);
    expect(timestampMs(parseExpiration('2026-06-01T00:00:00Z', NOW)!)).toBe(Date.parse('2026-06-01T00:00:00Z'));
  });

  test('staking grants: type, max tokens, allow or deny list', () => {
    const any = buildAuthzGrant({ granter: alice.bech32, grantee: bob.bech32, type: 'redelegate', spendLimit: '5attotoken', denyValidators: alice.valoper, nowMs: NOW });
    const stake = fromBinary(StakeAuthorizationSchema, fromBinary(MsgGrantSchema, any.value).grant!.authorization!.value);
    expect(stake.authorizationType).toBe(AuthorizationType.REDELEGATE);
    expect(stake.maxTokens?.amount).toBe('5');
    expect(stake.validators).toMatchObject({ case: 'denyList', value: { address: [alice.valoper] } });
  });

  test('bad input: one clear error each, usage exit code', () => {
    const base = { granter: alice.bech32, grantee: bob.bech32, nowMs: NOW };
    const cases: [() => unknown, RegExp][] = [
      [() => buildAuthzGrant({ ...base, type: 'bogus' }), /invalid authorization type "bogus"/],
      [() => buildAuthzGrant({ ...base, grantee: 'token1nonsense', type: 'send', spendLimit: '1attotoken' }), /invalid grantee address/],
      [() => buildAuthzGrant({ ...base, grantee: alice.bech32, type: 'send', spendLimit: '1attotoken' }), /grantee and granter should be different/],
      [() => buildAuthzGrant({ ...base, type: 'send' }), /send authorization needs --spend-limit/],
      [() => buildAuthzGrant({ ...base, type: 'send', spendLimit: '0attotoken' }), /invalid --spend-limit "0attotoken".*must be positive/],
      [() => buildAuthzGrant({ ...base, type: 'send', spendLimit: 'lots' }), /invalid --spend-limit "lots"/],
      [() => buildAuthzGrant({ ...base, type: 'send', spendLimit: '1attotoken', expiration: '1000' }), /is not in the future/],
      [() => buildAuthzGrant({ ...base, type: 'send', spendLimit: '1attotoken', expiration: 'tomorrow' }), /invalid --expiration "tomorrow"/],
      [() => buildAuthzGrant({ ...base, type: 'generic' }), /needs --msg-type/],
      [() => buildAuthzGrant({ ...base, type: 'delegate' }), /needs --allowed-validators or --deny-validators/],
      [() => buildAuthzGrant({ ...base, type: 'delegate', allowedValidators: alice.valoper, denyValidators: bob.valoper }), /cannot set both/],
      [() => buildAuthzGrant({ ...base, type: 'delegate', allowedValidators: alice.bech32 }), /invalid validator address/],
      [() => buildAuthzRevoke(alice.bech32, bob.bech32, 'MsgSend'), /invalid message type URL/],
      [() => buildAuthzExec(bob.bech32, []), /has no messages/],
      [() => buildFeeAllowance({ ...base, period: '10' }), /needs both --period and --period-limit/],
      [() => buildFeeAllowance({ ...base, period: 'often', periodLimit: '1attotoken' }), /invalid --period "often"/],
      [() => buildFeeAllowance({ ...base, spendLimit: '5attotoken', period: '10', periodLimit: '6attotoken' }), /cannot exceed --spend-limit/],
      [() => buildFeeAllowance({ ...base, allowedMessages: ' , ' }), /--allowed-messages is empty/],
      [() => buildFeeAllowance({ ...base, grantee: alice.bech32 }), /cannot self-grant/],
    ];
    for (const [fn, pattern] of cases) {
      const { message, exitCode } = refusal(fn);
      expect(message).toMatch(pattern);
      expect(message).not.toContain('\n');
      expect(exitCode).toBe(2);
    }
  });

  test('revoke and exec messages', () => {
    expect(fromBinary(MsgRevokeSchema, buildAuthzRevoke(alice.bech32, bob.bech32, '/cosmos.bank.v1beta1.MsgSend').value).msgTypeUrl).toBe('/cosmos.bank.v1beta1.MsgSend');
    const exec = fromBinary(MsgExecSchema, buildAuthzExec(bob.bech32, [msgSend(alice.bech32, bob.bech32, 1n)]).value);
    expect(exec.msgs.map((m) => m.typeUrl)).toEqual(['/cosmos.bank.v1beta1.MsgSend']);
  });

  test('fee allowances: periodic inside allowed-msg', () => {
    const any = buildFeeAllowance({ granter: alice.bech32, grantee: bob.bech32, spendLimit: '100attotoken', period: '30s', periodLimit: '10attotoken', allowedMessages: '/cosmos.bank.v1beta1.MsgSend', nowMs: NOW });
    const msg = fromBinary(MsgGrantAllowanceSchema, any.value);
    const allowed = fromBinary(AllowedMsgAllowanceSchema, msg.allowance!.value);
    expect(allowed.allowedMessages).toEqual(['/cosmos.bank.v1beta1.MsgSend']);
    const periodic = fromBinary(PeriodicAllowanceSchema, allowed.allowance!.value);
    expect(periodic.period?.seconds).toBe(30n);
    expect(periodic.periodCanSpend.map((c) => c.amount)).toEqual(['10']);
    expect(parsePeriodMs('2h')).toBe(7_200_000);
    expect(parsePeriodMs('500ms')).toBe(500);
  });
});
