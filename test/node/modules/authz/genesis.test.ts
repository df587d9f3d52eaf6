/** authz and feegrant genesis: export re-initialises a chain with the same grants; bad entries are refused, one line each. */
import { create, toBinary } from '@bufbuild/protobuf';
import { durationFromMs, timestampFromMs } from '@bufbuild/protobuf/wkt';
import { GenericAuthorizationSchema, GrantSchema } from '../../../../src/gen/cosmos/authz/v1beta1/authz_pb.js';
import { QueryGranterGrantsRequestSchema, QueryGranterGrantsResponseSchema } from '../../../../src/gen/cosmos/authz/v1beta1/query_pb.js';
import { MsgGrantSchema } from '../../../../src/gen/cosmos/authz/v1beta1/tx_pb.js';
import { SendAuthorizationSchema } from '../../../../src/gen/cosmos/bank/v1beta1/authz_pb.js';
import { BasicAllowanceSchema, PeriodicAllowanceSchema } from '../../../../src/gen/cosmos/feegrant/v1beta1/feegrant_pb.js';
import { QueryAllowancesByGranterRequestSchema, QueryAllowancesByGranterResponseSchema } from '../../../../src/gen/cosmos/feegrant/v1beta1/query_pb.js';
import { MsgGrantAllowanceSchema } from '../../../../src/gen/cosmos/feegrant/v1beta1/tx_pb.js';
import { exportAppState, validateAppState } from '../../../../src/node/app/index.js';
import { toGatewayJson } from '../../../../src/node/codec/index.js';
import { CHAIN_ID, GENESIS_TIME, TOKEN, abciQuery, buildAppState, coin, pack, startChain, testKey } from '../../app/helpers.js';
import { run } from './harness.js';

const alice = testKey('genesis-alice');
const bob = testKey('genesis-bob');
const carol = testKey('genesis-carol');
const validator = testKey('genesis-validator');
type Json = Record<string, any>;

describe('authz and feegrant genesis', () => {
  test('export → validate → a new chain with the same grants, allowances and queues', async () => {
    const chain = await startChain(buildAppState({ accounts: [[alice, 1000n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN }));
    const expires = timestampFromMs(GENESIS_TIME.getTime() + 3_600_000);
    const msgs = [
      pack(MsgGrantSchema, { granter: alice.bech32, grantee: bob.bech32, grant: create(GrantSchema, { authorization: pack(SendAuthorizationSchema, { spendLimit: [coin(500n)], allowList: [carol.bech32] }), expiration: expires }) }),
      pack(MsgGrantSchema, { granter: alice.bech32, grantee: carol.bech32, grant: create(GrantSchema, { authorization: pack(GenericAuthorizationSchema, { msg: '/cosmos.bank.v1beta1.MsgMultiSend' }) }) }),
      pack(MsgGrantAllowanceSchema, {
        granter: alice.bech32,
        grantee: bob.bech32,
        allowance: pack(PeriodicAllowanceSchema, { basic: create(BasicAllowanceSchema, { spendLimit: [coin(1000n)], expiration: expires }), period: durationFromMs(60_000), periodSpendLimit: [coin(100n)], periodCanSpend: [coin(100n)] }),
      }),
    ];
    expect((await run(chain, alice, msgs, { gas: 400_000n })).code).toBe(0);
    const exported = (await exportAppState(chain.store)) as Json;
    await chain.close();
    expect(validateAppState(exported, CHAIN_ID)).toEqual([]);
    expect(exported.authz.authorization).toHaveLength(2);
    expect(exported.feegrant.allowances).toHaveLength(1);
    expect(exported.feegrant.allowances[0].allowance['@type']).toBe('/cosmos.feegrant.v1beta1.PeriodicAllowance');

    const restarted = await startChain(exported);
    await restarted.block([]);
    const again = (await exportAppState(restarted.store)) as Json;
    expect(again.authz).toEqual(exported.authz);
    expect(again.feegrant).toEqual(exported.feegrant);
    const grants = await abciQuery(restarted.app, '/cosmos.authz.v1beta1.Query/GranterGrants', toBinary(QueryGranterGrantsRequestSchema, create(QueryGranterGrantsRequestSchema, { granter: alice.bech32 })), QueryGranterGrantsResponseSchema);
    expect(grants.value!.grants.map((g) => g.grantee).sort()).toEqual([bob.bech32, carol.bech32].sort());
    const allowances = await abciQuery(restarted.app, '/cosmos.feegrant.v1beta1.Query/AllowancesByGranter', toBinary(QueryAllowancesByGranterRequestSchema, create(QueryAllowancesByGranterRequestSchema, { granter: alice.bech32 })), QueryAllowancesByGranterResponseSchema);
    expect(allowances.value!.allowances.map((a) => a.grantee)).toEqual([bob.bech32]);
    // The expiry queues came along: an hour later both the grant and the allowance are gone.
    await restarted.block([], { time: new Date(GENESIS_TIME.getTime() + 3_700_000) });
    const later = (await exportAppState(restarted.store)) as Json;
    expect(later.authz.authorization.map((g: Json) => g.grantee)).toEqual([carol.bech32]);
    expect(later.feegrant.allowances).toEqual([]);
    await restarted.close();
  });

  test('bad entries: one problem each, naming the entry', () => {
    const state = buildAppState({ accounts: [[alice, 1000n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN }) as Json;
    const send = toGatewayJson(SendAuthorizationSchema, create(SendAuthorizationSchema, { spendLimit: [] })) as Json;
    state.authz.authorization = [
      { granter: alice.bech32, grantee: alice.bech32, authorization: { '@type': '/cosmos.authz.v1beta1.GenericAuthorization', msg: '/cosmos.bank.v1beta1.MsgSend' } },
      { granter: alice.bech32, grantee: bob.bech32, authorization: { '@type': '/cosmos.bank.v1beta1.SendAuthorization', ...send } },
      { granter: 'token1nope', grantee: bob.bech32, authorization: { '@type': '/cosmos.authz.v1beta1.GenericAuthorization', msg: '/cosmos.bank.v1beta1.MsgSend' } },
    ];
    state.feegrant.allowances = [
      { granter: alice.bech32, grantee: bob.bech32, allowance: { '@type': '/cosmos.feegrant.v1beta1.AllowedMsgAllowance', allowance: { '@type': '/cosmos.feegrant.v1beta1.BasicAllowance', spend_limit: [] }, allowed_messages: [] } },
    ];
    const problems = validateAppState(state, CHAIN_ID);
    expect(problems).toEqual([
      expect.stringMatching(/authz.*grant 0 .*grantee and granter should be different/),
      expect.stringMatching(/authz.*grant 1 .*spend limit cannot be nil/),
      expect.stringMatching(/authz.*grant 2 .*invalid granter address/),
      expect.stringMatching(/feegrant.*allowance 0 .*allowed messages shouldn't be empty/),
    ]);
    for (const problem of problems) expect(problem).not.toContain('\n');
  });
});
