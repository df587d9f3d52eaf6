/** x/feegrant through the app: the grantee's fees paid by the granter, basic / periodic / allowed-msg allowances, expiry, queries. */
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { durationFromMs, timestampFromMs, type Any } from '@bufbuild/protobuf/wkt';
import { GenericAuthorizationSchema, GrantSchema as AuthzGrantSchema } from '../../../../src/gen/cosmos/authz/v1beta1/authz_pb.js';
import { MsgGrantSchema } from '../../../../src/gen/cosmos/authz/v1beta1/tx_pb.js';
import { AllowedMsgAllowanceSchema, BasicAllowanceSchema, PeriodicAllowanceSchema } from '../../../../src/gen/cosmos/feegrant/v1beta1/feegrant_pb.js';
import {
  QueryAllowanceRequestSchema,
  QueryAllowanceResponseSchema,
  QueryAllowancesByGranterRequestSchema,
  QueryAllowancesByGranterResponseSchema,
  QueryAllowancesRequestSchema,
  QueryAllowancesResponseSchema,
} from '../../../../src/gen/cosmos/feegrant/v1beta1/query_pb.js';
import { MsgGrantAllowanceSchema, MsgPruneAllowancesSchema, MsgRevokeAllowanceSchema } from '../../../../src/gen/cosmos/feegrant/v1beta1/tx_pb.js';
import { exportAppState } from '../../../../src/node/app/index.js';
import { GENESIS_TIME, TOKEN, abciQuery, buildAppState, coin, msgSend, pack, startChain, testKey, type Chain } from '../../app/helpers.js';
import { attributes, balance, run } from './harness.js';

const alice = testKey('feegrant-alice');
const bob = testKey('feegrant-bob');
const carol = testKey('feegrant-carol');
const validator = testKey('feegrant-validator');

function grantAllowance(allowance: Any, granter = alice.bech32, grantee = bob.bech32): Any {
  return pack(MsgGrantAllowanceSchema, { granter, grantee, allowance });
}

function basic(limit?: bigint, expirationMs?: number): Any {
  return pack(BasicAllowanceSchema, { spendLimit: limit === undefined ? [] : [coin(limit)], expiration: expirationMs === undefined ? undefined : timestampFromMs(expirationMs) });
}

async function allowance(chain: Chain): Promise<{ code: number; log: string; allowance?: Any }> {
  const { response, value } = await abciQuery(chain.app, '/cosmos.feegrant.v1beta1.Query/Allowance', toBinary(QueryAllowanceRequestSchema, create(QueryAllowanceRequestSchema, { granter: alice.bech32, grantee: bob.bech32 })), QueryAllowanceResponseSchema);
  return { code: response.code, log: response.log, allowance: value?.allowance?.allowance };
}

function basicLimit(any: Any | undefined): string[] {
  return fromBinary(BasicAllowanceSchema, any!.value).spendLimit.map((c) => `${c.amount}${c.denom}`);
}

/** A send from bob whose fee the allowance pays. */
const bobSend = (chain: Chain, fee: bigint, msgs: Any[] = [msgSend(bob.bech32, carol.bech32, 1n)]): ReturnType<typeof run> => run(chain, bob, msgs, { fee, granter: alice.bech32 });

describe('x/feegrant', () => {
  let chain: Chain;

  beforeEach(async () => {
    chain = await startChain(buildAppState({ accounts: [[alice, 1000n * TOKEN], [bob, 1n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN }));
  });

  afterEach(async () => {
    await chain.close();
  });

  test('the grantee pays fees from the granter; a basic limit exceeded is refused with no state change; used up is removed', async () => {
    const granted = await run(chain, alice, [grantAllowance(basic(1000n))]);
    expect(granted.code).toBe(0);
    expect(attributes(granted, 'set_feegrant')).toEqual([{ granter: alice.bech32, grantee: bob.bech32, msg_index: '0' }]);
    const [aliceBefore, bobBefore] = [balance(chain, alice), balance(chain, bob)];

    const paid = await bobSend(chain, 300n);
    expect([paid.code, paid.log]).toEqual([0, '']);
    expect(attributes(paid, 'tx').find((attr) => attr.fee_payer !== undefined)).toEqual({ fee: '300attotoken', fee_payer: alice.bech32 });
    expect(attributes(paid, 'use_feegrant')).toEqual([{ granter: alice.bech32, grantee: bob.bech32 }]);
    expect(balance(chain, alice)).toBe(aliceBefore - 300n);
    expect(balance(chain, bob)).toBe(bobBefore - 1n);
    expect(basicLimit((await allowance(chain)).allowance)).toEqual(['700attotoken']);

    const over = await bobSend(chain, 800n);
    expect([over.code, over.codespace]).toEqual([2, 'feegrant']);
    expect(over.log).toBe(`${alice.bech32} does not allow to pay fees for ${bob.bech32}: basic allowance: fee limit exceeded`);
    expect(balance(chain, alice)).toBe(aliceBefore - 300n);
    expect(balance(chain, bob)).toBe(bobBefore - 1n);
    expect(basicLimit((await allowance(chain)).allowance)).toEqual(['700attotoken']);

    expect((await bobSend(chain, 700n)).code).toBe(0);
    const gone = await allowance(chain);
    // As the SDK: the keeper's error travels as gRPC Unknown, which an ABCI query answers as sdk/6.
    expect([gone.code, gone.log]).toEqual([6, 'rpc error: code = Unknown desc = fee-grant not found: no allowance: unknown request']);
    const none = await bobSend(chain, 1n);
    expect([none.code, none.codespace]).toEqual([5, 'feegrant']);
  });

  test('a periodic allowance refuses beyond the period limit and resets after the period', async () => {
    // Block h has time GENESIS + h s; a 5 s period.
    const periodic = pack(PeriodicAllowanceSchema, {
      basic: create(BasicAllowanceSchema, { spendLimit: [coin(1000n)] }),
      period: durationFromMs(5000),
      periodSpendLimit: [coin(100n)],
      periodCanSpend: [coin(100n)],
      periodReset: timestampFromMs(0),
    });
    expect((await run(chain, alice, [grantAllowance(periodic)])).code).toBe(0);
    expect((await bobSend(chain, 60n)).code).toBe(0);
    const over = await bobSend(chain, 60n);
    expect([over.code, over.codespace]).toEqual([2, 'feegrant']);
    expect(over.log).toContain('period limit: fee limit exceeded');
    for (let i = 0; i < 5; i++) await chain.block([]);
    const afterReset = await bobSend(chain, 60n);
    expect([afterReset.code, afterReset.log]).toEqual([0, '']);
    const state = fromBinary(PeriodicAllowanceSchema, (await allowance(chain)).allowance!.value);
    expect(state.periodCanSpend.map((c) => c.amount)).toEqual(['40']);
    expect(state.basic!.spendLimit.map((c) => c.amount)).toEqual(['880']);
  });

  test('an allowed-message allowance refuses other messages', async () => {
    const restricted = pack(AllowedMsgAllowanceSchema, { allowance: basic(1000n), allowedMessages: ['/cosmos.bank.v1beta1.MsgSend'] });
    expect((await run(chain, alice, [grantAllowance(restricted)])).code).toBe(0);
    expect((await bobSend(chain, 10n)).code).toBe(0);
    const other = pack(MsgGrantSchema, { granter: bob.bech32, grantee: carol.bech32, grant: create(AuthzGrantSchema, { authorization: pack(GenericAuthorizationSchema, { msg: '/cosmos.bank.v1beta1.MsgSend' }) }) });
    const refused = await bobSend(chain, 10n, [other]);
    expect([refused.code, refused.codespace]).toEqual([7, 'feegrant']);
    expect(refused.log).toContain('message does not exist in allowed messages: message not allowed');
    const inner = fromBinary(AllowedMsgAllowanceSchema, (await allowance(chain)).allowance!.value);
    expect(basicLimit(inner.allowance)).toEqual(['990attotoken']);
  });

  test('an expired allowance is refused, then pruned at EndBlock; a grant expiring in the past is refused', async () => {
    const past = await run(chain, alice, [grantAllowance(basic(1000n, GENESIS_TIME.getTime()))]);
    expect([past.code, past.codespace]).toEqual([18, 'sdk']);
    expect(past.log).toContain('expiration is before current block time');
    const expiresAt = GENESIS_TIME.getTime() + (chain.height + 2) * 1000 + 500;
    expect((await run(chain, alice, [grantAllowance(basic(1000n, expiresAt))])).code).toBe(0);
    await chain.block([]);
    // This block's time is past the expiration: the allowance refuses, and EndBlock prunes it.
    const expired = await bobSend(chain, 10n);
    expect([expired.code, expired.codespace]).toEqual([3, 'feegrant']);
    expect(expired.log).toContain('basic allowance: fee allowance expired');
    expect((await allowance(chain)).log).toContain('fee-grant not found');
  });

  test('grant and revoke errors; revoke; prune; queries by grantee and granter; genesis export', async () => {
    const self = await run(chain, alice, [grantAllowance(basic(10n), alice.bech32, alice.bech32)]);
    expect([self.code, self.codespace]).toEqual([7, 'sdk']);
    const missing = await run(chain, alice, [pack(MsgRevokeAllowanceSchema, { granter: alice.bech32, grantee: bob.bech32 })]);
    expect([missing.code, missing.codespace]).toEqual([5, 'feegrant']);
    const badLimit = await run(chain, alice, [grantAllowance(pack(AllowedMsgAllowanceSchema, { allowance: basic(10n), allowedMessages: [] }))]);
    expect([badLimit.code, badLimit.codespace]).toEqual([6, 'feegrant']);

    expect((await run(chain, alice, [grantAllowance(basic(10n))])).code).toBe(0);
    const twice = await run(chain, alice, [grantAllowance(basic(10n))]);
    expect([twice.code, twice.codespace]).toEqual([18, 'sdk']);
    expect(twice.log).toContain('fee allowance already exists');
    expect((await run(chain, alice, [grantAllowance(basic(), alice.bech32, carol.bech32)])).code).toBe(0);

    const byGrantee = await abciQuery(chain.app, '/cosmos.feegrant.v1beta1.Query/Allowances', toBinary(QueryAllowancesRequestSchema, create(QueryAllowancesRequestSchema, { grantee: bob.bech32 })), QueryAllowancesResponseSchema);
    expect(byGrantee.value!.allowances.map((g) => g.granter)).toEqual([alice.bech32]);
    const byGranter = await abciQuery(chain.app, '/cosmos.feegrant.v1beta1.Query/AllowancesByGranter', toBinary(QueryAllowancesByGranterRequestSchema, create(QueryAllowancesByGranterRequestSchema, { granter: alice.bech32 })), QueryAllowancesByGranterResponseSchema);
    expect(byGranter.value!.allowances.map((g) => g.grantee).sort()).toEqual([bob.bech32, carol.bech32].sort());

    const exported = ((await exportAppState(chain.store)) as Record<string, { allowances: unknown[] }>).feegrant;
    expect(exported.allowances).toHaveLength(2);
    const { validateFeegrantGenesis } = await import('../../../../src/node/modules/feegrant/genesis.js');
    expect(validateFeegrantGenesis(exported as never)).toEqual([]);

    const revoked = await run(chain, alice, [pack(MsgRevokeAllowanceSchema, { granter: alice.bech32, grantee: bob.bech32 })]);
    expect(revoked.code).toBe(0);
    expect(attributes(revoked, 'revoke_feegrant')).toHaveLength(1);
    expect((await allowance(chain)).log).toContain('fee-grant not found');
    const pruned = await run(chain, bob, [pack(MsgPruneAllowancesSchema, { pruner: bob.bech32 })]);
    expect(pruned.code).toBe(0);
    expect(attributes(pruned, 'prune_feegrant')).toEqual([{ pruner: bob.bech32, msg_index: '0' }]);
  });
});
