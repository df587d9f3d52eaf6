/** x/authz through the app: grants, exec within and beyond limits, expiry, revoke, staking authorizations, queries, genesis. */
import { create, toBinary } from '@bufbuild/protobuf';
import { timestampFromMs, type Any } from '@bufbuild/protobuf/wkt';
import { GenericAuthorizationSchema, GrantSchema } from '../../../../src/gen/cosmos/authz/v1beta1/authz_pb.js';
import { QueryGranteeGrantsRequestSchema, QueryGranteeGrantsResponseSchema, QueryGranterGrantsRequestSchema, QueryGranterGrantsResponseSchema, QueryGrantsRequestSchema, QueryGrantsResponseSchema } from '../../../../src/gen/cosmos/authz/v1beta1/query_pb.js';
import { MsgExecResponseSchema, MsgExecSchema, MsgGrantSchema, MsgRevokeSchema } from '../../../../src/gen/cosmos/authz/v1beta1/tx_pb.js';
import { SendAuthorizationSchema } from '../../../../src/gen/cosmos/bank/v1beta1/authz_pb.js';
import { TxMsgDataSchema } from '../../../../src/gen/cosmos/base/abci/v1beta1/abci_pb.js';
import { AuthorizationType, StakeAuthorization_ValidatorsSchema, StakeAuthorizationSchema } from '../../../../src/gen/cosmos/staking/v1beta1/authz_pb.js';
import { MsgDelegateSchema } from '../../../../src/gen/cosmos/staking/v1beta1/tx_pb.js';
import { fromBinary } from '@bufbuild/protobuf';
import { createModuleManager } from '../../../../src/node/app/modules.js';
import { fromGatewayJson } from '../../../../src/node/codec/index.js';
import { exportAppState } from '../../../../src/node/app/index.js';
import type { StakingKeeper } from '../../../../src/node/modules/staking/keeper.js';
import { GENESIS_TIME, TOKEN, abciQuery, buildAppState, coin, msgSend, pack, startChain, testKey, type Chain } from '../../app/helpers.js';
import { attributes, balance, queryCtx, run } from './harness.js';

const alice = testKey('authz-alice');
const bob = testKey('authz-bob');
const carol = testKey('authz-carol');
const dave = testKey('authz-dave');
const validator = testKey('authz-validator');
const SEND = '/cosmos.bank.v1beta1.MsgSend';

function sendGrant(granter: string, grantee: string, limit: bigint, options: { allowList?: string[]; expirationMs?: number } = {}): Any {
  const authorization = pack(SendAuthorizationSchema, { spendLimit: [coin(limit)], allowList: options.allowList ?? [] });
  return pack(MsgGrantSchema, { granter, grantee, grant: create(GrantSchema, { authorization, expiration: options.expirationMs === undefined ? undefined : timestampFromMs(options.expirationMs) }) });
}

function exec(grantee: string, msgs: Any[]): Any {
  return pack(MsgExecSchema, { grantee, msgs });
}

async function grants(chain: Chain, granter: string, grantee: string, msgTypeUrl = ''): Promise<{ code: number; log: string; grants: { authorization?: Any }[] }> {
  const { response, value } = await abciQuery(chain.app, '/cosmos.authz.v1beta1.Query/Grants', toBinary(QueryGrantsRequestSchema, create(QueryGrantsRequestSchema, { granter, grantee, msgTypeUrl })), QueryGrantsResponseSchema);
  return { code: response.code, log: response.log, grants: value?.grants ?? [] };
}

function spendLimit(any: Any | undefined): string[] {
  return fromBinary(SendAuthorizationSchema, any!.value).spendLimit.map((c) => `${c.amount}${c.denom}`);
}

describe('x/authz', () => {
  let chain: Chain;

  beforeEach(async () => {
    chain = await startChain(buildAppState({ accounts: [[alice, 1000n * TOKEN], [bob, 10n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN }));
  });

  afterEach(async () => {
    await chain.close();
  });

  test('a send grant with a limit executes within it, refuses beyond it, is lowered on use and deleted at zero', async () => {
    const granted = await run(chain, alice, [sendGrant(alice.bech32, bob.bech32, 100n)]);
    expect(granted.code).toBe(0);
    expect(attributes(granted, 'cosmos.authz.v1beta1.EventGrant')).toEqual([{ grantee: `"${bob.bech32}"`, granter: `"${alice.bech32}"`, msg_type_url: `"${SEND}"`, msg_index: '0' }]);
    expect(spendLimit((await grants(chain, alice.bech32, bob.bech32)).grants[0]!.authorization)).toEqual(['100attotoken']);

    const within = await run(chain, bob, [exec(bob.bech32, [msgSend(alice.bech32, carol.bech32, 60n)])]);
    expect([within.code, within.log]).toEqual([0, '']);
    expect(balance(chain, carol)).toBe(60n);
    // The exec's response carries one result (the MsgSend's response) and the send's events are tagged.
    const execResponse = fromBinary(MsgExecResponseSchema, fromBinary(TxMsgDataSchema, within.data).msgResponses[0]!.value);
    expect(execResponse.results).toHaveLength(1);
    expect(attributes(within, 'transfer').some((attr) => attr.authz_msg_index === '0' && attr.recipient === carol.bech32)).toBe(true);
    expect(spendLimit((await grants(chain, alice.bech32, bob.bech32, SEND)).grants[0]!.authorization)).toEqual(['40attotoken']);

    const aliceBefore = balance(chain, alice);
    const beyond = await run(chain, bob, [exec(bob.bech32, [msgSend(alice.bech32, carol.bech32, 50n)])]);
    expect([beyond.code, beyond.codespace, beyond.log]).toEqual([5, 'sdk', 'failed to execute message; message index: 0: requested amount is more than spend limit: insufficient funds']);
    expect(balance(chain, carol)).toBe(60n);
    expect(balance(chain, alice)).toBe(aliceBefore);
    expect(spendLimit((await grants(chain, alice.bech32, bob.bech32)).grants[0]!.authorization)).toEqual(['40attotoken']);

    const rest = await run(chain, bob, [exec(bob.bech32, [msgSend(alice.bech32, carol.bech32, 40n)])]);
    expect(rest.code).toBe(0);
    expect(attributes(rest, 'cosmos.authz.v1beta1.EventRevoke')).toHaveLength(1);
    expect(balance(chain, carol)).toBe(100n);
    const gone = await grants(chain, alice.bech32, bob.bech32, SEND);
    expect(gone.code).not.toBe(0);
    expect(gone.log).toContain(`no authorization found for ${SEND} type`);
    expect((await grants(chain, alice.bech32, bob.bech32)).grants).toEqual([]);
  });

  test('allow_list: sends only to the listed recipients', async () => {
    expect((await run(chain, alice, [sendGrant(alice.bech32, bob.bech32, 100n, { allowList: [carol.bech32] })])).code).toBe(0);
    const elsewhere = await run(chain, bob, [exec(bob.bech32, [msgSend(alice.bech32, dave.bech32, 10n)])]);
    expect([elsewhere.code, elsewhere.codespace]).toEqual([4, 'sdk']);
    expect(elsewhere.log).toContain(`cannot send to ${dave.bech32} address`);
    expect(balance(chain, dave)).toBe(0n);
    expect((await run(chain, bob, [exec(bob.bech32, [msgSend(alice.bech32, carol.bech32, 10n)])])).code).toBe(0);
    expect(balance(chain, carol)).toBe(10n);
  });

  test('expiration: a past expiration is refused; an expired grant is pruned in BeginBlock and refused', async () => {
    // Block h has time GENESIS + h s.
    const past = await run(chain, alice, [sendGrant(alice.bech32, bob.bech32, 100n, { expirationMs: GENESIS_TIME.getTime() })]);
    expect([past.code, past.codespace]).toEqual([3, 'authz']);
    expect(past.log).toContain('expiration must be after the current block time');
    const expiresAt = GENESIS_TIME.getTime() + (chain.height + 3) * 1000;
    expect((await run(chain, alice, [sendGrant(alice.bech32, bob.bech32, 100n, { expirationMs: expiresAt })])).code).toBe(0);
    expect((await grants(chain, alice.bech32, bob.bech32)).grants).toHaveLength(1);
    await chain.block([]);
    await chain.block([]);
    const late = await run(chain, bob, [exec(bob.bech32, [msgSend(alice.bech32, carol.bech32, 1n)])]);
    expect([late.code, late.codespace]).toEqual([2, 'authz']);
    expect(late.log).toContain('authorization not found');
    expect((await grants(chain, alice.bech32, bob.bech32)).grants).toEqual([]);
    expect(balance(chain, carol)).toBe(0n);
  });

  test('exec: a message signed by someone who gave no grant is refused; one signed by the grantee itself needs none', async () => {
    expect((await run(chain, alice, [sendGrant(alice.bech32, bob.bech32, 100n)])).code).toBe(0);
    const notGranter = await run(chain, bob, [exec(bob.bech32, [msgSend(validator.bech32, carol.bech32, 1n)])]);
    expect([notGranter.code, notGranter.codespace]).toEqual([2, 'authz']);
    expect(notGranter.log).toContain(`failed to get grant with given granter: ${validator.bech32}, grantee: ${bob.bech32} & msgType: ${SEND}`);
    const own = await run(chain, bob, [exec(bob.bech32, [msgSend(bob.bech32, carol.bech32, 5n)])]);
    expect(own.code).toBe(0);
    expect(balance(chain, carol)).toBe(5n);
    const empty = await run(chain, bob, [exec(bob.bech32, [])]);
    expect([empty.code, empty.codespace]).toEqual([18, 'sdk']);
  });

  test('grant and revoke errors; revoke removes the grant', async () => {
    const self = await run(chain, alice, [sendGrant(alice.bech32, alice.bech32, 100n)]);
    expect([self.code, self.codespace]).toEqual([7, 'authz']);
    const unknownType = await run(chain, alice, [pack(MsgGrantSchema, { granter: alice.bech32, grantee: bob.bech32, grant: create(GrantSchema, { authorization: pack(GenericAuthorizationSchema, { msg: '/no.such.Msg' }) }) })]);
    expect([unknownType.code, unknownType.codespace]).toEqual([29, 'sdk']);
    const missing = await run(chain, alice, [pack(MsgRevokeSchema, { granter: alice.bech32, grantee: bob.bech32, msgTypeUrl: SEND })]);
    expect([missing.code, missing.codespace]).toEqual([2, 'authz']);
    expect(missing.log).toContain('authorization not found');

    expect((await run(chain, alice, [pack(MsgGrantSchema, { granter: alice.bech32, grantee: bob.bech32, grant: create(GrantSchema, { authorization: pack(GenericAuthorizationSchema, { msg: SEND }) }) })])).code).toBe(0);
    const revoked = await run(chain, alice, [pack(MsgRevokeSchema, { granter: alice.bech32, grantee: bob.bech32, msgTypeUrl: SEND })]);
    expect(revoked.code).toBe(0);
    expect(attributes(revoked, 'cosmos.authz.v1beta1.EventRevoke')).toEqual([{ grantee: `"${bob.bech32}"`, granter: `"${alice.bech32}"`, msg_type_url: `"${SEND}"`, msg_index: '0' }]);
    const after = await run(chain, bob, [exec(bob.bech32, [msgSend(alice.bech32, carol.bech32, 1n)])]);
    expect([after.code, after.codespace]).toEqual([2, 'authz']);
  });

  test('stake authorization: allow list and max tokens', async () => {
    const stake = (validators: { allow?: string[]; deny?: string[] }, max?: bigint): Any =>
      pack(MsgGrantSchema, {
        granter: alice.bech32,
        grantee: bob.bech32,
        grant: create(GrantSchema, {
          authorization: pack(StakeAuthorizationSchema, {
            maxTokens: max === undefined ? undefined : coin(max),
            authorizationType: AuthorizationType.DELEGATE,
            validators: validators.allow !== undefined ? { case: 'allowList', value: create(StakeAuthorization_ValidatorsSchema, { address: validators.allow }) } : { case: 'denyList', value: create(StakeAuthorization_ValidatorsSchema, { address: validators.deny ?? [] }) },
          }),
        }),
      });
    const delegate = (amount: bigint): Any => pack(MsgDelegateSchema, { delegatorAddress: alice.bech32, validatorAddress: validator.valoper, amount: coin(amount) });
    expect((await run(chain, alice, [stake({ allow: [validator.valoper] }, 100n * TOKEN)])).code).toBe(0);
    expect((await run(chain, bob, [exec(bob.bech32, [delegate(60n * TOKEN)])])).code).toBe(0);
    const staking = createModuleManager().keeper<StakingKeeper>('staking');
    expect(staking.getDelegation(queryCtx(chain), alice.address, validator.address)).toBeDefined();
    const beyond = await run(chain, bob, [exec(bob.bech32, [delegate(41n * TOKEN)])]);
    expect([beyond.code, beyond.codespace]).toEqual([5, 'sdk']);
    expect((await run(chain, bob, [exec(bob.bech32, [delegate(40n * TOKEN)])])).code).toBe(0);
    // used up: deleted
    expect((await grants(chain, alice.bech32, bob.bech32)).grants).toEqual([]);

    expect((await run(chain, alice, [stake({ deny: [validator.valoper] })])).code).toBe(0);
    const denied = await run(chain, bob, [exec(bob.bech32, [delegate(1n)])]);
    expect([denied.code, denied.codespace]).toEqual([4, 'sdk']);
    expect(denied.log).toContain(`cannot delegate/undelegate to ${validator.valoper} validator`);
  });

  test('queries by granter and grantee; genesis export re-imports the grants', async () => {
    expect((await run(chain, alice, [sendGrant(alice.bech32, bob.bech32, 100n)])).code).toBe(0);
    expect((await run(chain, alice, [sendGrant(alice.bech32, carol.bech32, 7n, { expirationMs: GENESIS_TIME.getTime() + 3_600_000 })])).code).toBe(0);
    const byGranter = await abciQuery(chain.app, '/cosmos.authz.v1beta1.Query/GranterGrants', toBinary(QueryGranterGrantsRequestSchema, create(QueryGranterGrantsRequestSchema, { granter: alice.bech32 })), QueryGranterGrantsResponseSchema);
    expect(byGranter.value!.grants.map((g) => g.grantee).sort()).toEqual([bob.bech32, carol.bech32].sort());
    const byGrantee = await abciQuery(chain.app, '/cosmos.authz.v1beta1.Query/GranteeGrants', toBinary(QueryGranteeGrantsRequestSchema, create(QueryGranteeGrantsRequestSchema, { grantee: carol.bech32 })), QueryGranteeGrantsResponseSchema);
    expect(byGrantee.value!.grants.map((g) => [g.granter, g.grantee])).toEqual([[alice.bech32, carol.bech32]]);
    const bad = await grants(chain, 'nonsense', bob.bech32);
    expect(bad.code).not.toBe(0);

    const exported = ((await exportAppState(chain.store)) as Record<string, unknown>).authz as { authorization: { granter: string; grantee: string; authorization: Record<string, unknown>; expiration?: string }[] };
    expect(exported.authorization).toHaveLength(2);
    expect(exported.authorization.find((g) => g.grantee === carol.bech32)!.expiration).toBe('2024-01-01T01:00:00Z');
    expect(exported.authorization.find((g) => g.grantee === bob.bech32)!.authorization).toEqual({ '@type': '/cosmos.bank.v1beta1.SendAuthorization', spend_limit: [{ denom: 'attotoken', amount: '100' }], allow_list: [] });
    // The same state validates and re-imports.
    const { validateAuthzGenesis } = await import('../../../../src/node/modules/authz/genesis.js');
    expect(validateAuthzGenesis(exported as never)).toEqual([]);
    expect(fromGatewayJson(GrantSchema, { authorization: exported.authorization[0]!.authorization } as never).authorization).toBeDefined();
  });
});
