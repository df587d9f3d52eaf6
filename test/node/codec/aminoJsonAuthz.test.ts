/**
 * Amino JSON of the authz and feegrant messages (what SIGN_MODE_LEGACY_AMINO_JSON signs): nested
 * Anys (authorization, allowance, executed messages) as {type, value} with the SDK's amino names,
 * a staking authorization's oneof, a Duration as nanoseconds, timestamps in RFC 3339.
 */
import '../../../src/node/app/modules.js';
import { create, type DescMessage, type MessageInitShape } from '@bufbuild/protobuf';
import { durationFromMs, timestampFromMs, type Any } from '@bufbuild/protobuf/wkt';
import { GrantSchema } from '../../../src/gen/cosmos/authz/v1beta1/authz_pb.js';
import { MsgExecSchema, MsgGrantSchema } from '../../../src/gen/cosmos/authz/v1beta1/tx_pb.js';
import { SendAuthorizationSchema } from '../../../src/gen/cosmos/bank/v1beta1/authz_pb.js';
import { MsgSendSchema } from '../../../src/gen/cosmos/bank/v1beta1/tx_pb.js';
import { CoinSchema } from '../../../src/gen/cosmos/base/v1beta1/coin_pb.js';
import { AllowedMsgAllowanceSchema, BasicAllowanceSchema, PeriodicAllowanceSchema } from '../../../src/gen/cosmos/feegrant/v1beta1/feegrant_pb.js';
import { MsgGrantAllowanceSchema } from '../../../src/gen/cosmos/feegrant/v1beta1/tx_pb.js';
import { AuthorizationType, StakeAuthorization_ValidatorsSchema, StakeAuthorizationSchema } from '../../../src/gen/cosmos/staking/v1beta1/authz_pb.js';
import { AminoJsonEncoder } from '../../../src/node/codec/aminoJson.js';
import { anyPack } from '../../../src/node/codec/index.js';

const encoder = new AminoJsonEncoder();
const pack = <D extends DescMessage>(schema: D, init: MessageInitShape<D>): Any => anyPack(schema, create(schema, init));
const coin = (amount: string): ReturnType<typeof create<typeof CoinSchema>> => create(CoinSchema, { denom: 'attotoken', amount });
const A = 'token1granter';
const B = 'token1grantee';

describe('amino JSON of authz and feegrant messages', () => {
  test('MsgGrant with a SendAuthorization and an expiration', () => {
    const msg = pack(MsgGrantSchema, { granter: A, grantee: B, grant: create(GrantSchema, { authorization: pack(SendAuthorizationSchema, { spendLimit: [coin('1000')] }), expiration: timestampFromMs(Date.parse('2030-01-01T00:00:00Z')) }) });
    expect(encoder.encodeTxMessage(msg)).toBe(
      '{"type":"cosmos-sdk/MsgGrant","value":{"grant":{"authorization":{"type":"cosmos-sdk/SendAuthorization","value":{"spend_limit":[{"amount":"1000","denom":"attotoken"}]}},"expiration":"2030-01-01T00:00:00Z"},"grantee":"token1grantee","granter":"token1granter"}}',
    );
  });

  test('MsgGrant with a StakeAuthorization (oneof validators, enum as a number)', () => {
    const stake = pack(StakeAuthorizationSchema, { maxTokens: coin('5'), authorizationType: AuthorizationType.DELEGATE, validators: { case: 'allowList', value: create(StakeAuthorization_ValidatorsSchema, { address: ['tokenvaloper1x'] }) } });
    expect(encoder.encodeTxMessage(pack(MsgGrantSchema, { granter: A, grantee: B, grant: create(GrantSchema, { authorization: stake }) }))).toBe(
      '{"type":"cosmos-sdk/MsgGrant","value":{"grant":{"authorization":{"type":"cosmos-sdk/StakeAuthorization","value":{"Validators":{"type":"cosmos-sdk/StakeAuthorization/AllowList","value":{"allow_list":{"address":["tokenvaloper1x"]}}},"authorization_type":1,"max_tokens":{"amount":"5","denom":"attotoken"}}}},"grantee":"token1grantee","granter":"token1granter"}}',
    );
  });

  test('MsgExec: the executed messages as {type, value}', () => {
    const send = pack(MsgSendSchema, { fromAddress: A, toAddress: B, amount: [coin('7')] });
    expect(encoder.encodeTxMessage(pack(MsgExecSchema, { grantee: B, msgs: [send] }))).toBe(
      '{"type":"cosmos-sdk/MsgExec","value":{"grantee":"token1grantee","msgs":[{"type":"cosmos-sdk/MsgSend","value":{"amount":[{"amount":"7","denom":"attotoken"}],"from_address":"token1granter","to_address":"token1grantee"}}]}}',
    );
  });

  test('MsgGrantAllowance: an allowed-message allowance around a periodic one', () => {
    const periodic = pack(PeriodicAllowanceSchema, {
      basic: create(BasicAllowanceSchema, { spendLimit: [coin('100')] }),
      period: durationFromMs(3_600_000),
      periodSpendLimit: [coin('10')],
      periodCanSpend: [coin('10')],
      periodReset: timestampFromMs(Date.parse('2026-01-01T01:00:00.5Z')),
    });
    const allowance = pack(AllowedMsgAllowanceSchema, { allowance: periodic, allowedMessages: ['/cosmos.bank.v1beta1.MsgSend'] });
    expect(encoder.encodeTxMessage(pack(MsgGrantAllowanceSchema, { granter: A, grantee: B, allowance }))).toBe(
      '{"type":"cosmos-sdk/MsgGrantAllowance","value":{"allowance":{"type":"cosmos-sdk/AllowedMsgAllowance","value":{"allowance":{"type":"cosmos-sdk/PeriodicAllowance","value":{"basic":{"spend_limit":[{"amount":"100","denom":"attotoken"}]},"period":"3600000000000","period_can_spend":[{"amount":"10","denom":"attotoken"}],"period_reset":"2026-01-01T01:00:00.5Z","period_spend_limit":[{"amount":"10","denom":"attotoken"}]}},"allowed_messages":["/cosmos.bank.v1beta1.MsgSend"]}},"grantee":"token1grantee","granter":"token1granter"}}',
    );
  });
});
