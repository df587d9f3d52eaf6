/**
 * x/staking Msgs on a four-validator chain: delegate, undelegate (paid out exactly when the
 * unbonding time has passed), redelegate (and the chains the SDK forbids), cancel-unbond,
 * edit-validator commission rules, the network's accept_all_validators, and the bad inputs with
 * the SDK's codespace, code and log — and no state change. Invariants are checked after every block.
 */
import { create } from '@bufbuild/protobuf';
import { PubKeySchema as Ed25519PubKeySchema } from '../../../../src/gen/cosmos/crypto/ed25519/keys_pb.js';
import { CommissionRatesSchema, DescriptionSchema } from '../../../../src/gen/cosmos/staking/v1beta1/staking_pb.js';
import {
  MsgBeginRedelegateSchema,
  MsgCancelUnbondingDelegationSchema,
  MsgCreateValidatorSchema,
  MsgDelegateSchema,
  MsgEditValidatorSchema,
  MsgUndelegateSchema,
} from '../../../../src/gen/cosmos/staking/v1beta1/tx_pb.js';
import { legacyDecToWire } from '../../../../src/node/codec/index.js';
import type { JsonObject } from '@bufbuild/protobuf';
import type { StakingKeeper } from '../../../../src/node/modules/staking/keeper.js';
import { BondStatus } from '../../../../src/node/modules/staking/validator.js';
import { coin, consensusKey, pack, testKey } from '../../app/helpers.js';
import { TOKEN, balance, failedLog, failure, startPosChain, type PosChain } from './helpers.js';

const alice = testKey('pos-alice');
const bob = testKey('pos-bob');

const delegate = (from: string, to: string, amount: bigint, denom?: string) => pack(MsgDelegateSchema, { delegatorAddress: from, validatorAddress: to, amount: coin(amount, denom) });
const undelegate = (from: string, to: string, amount: bigint) => pack(MsgUndelegateSchema, { delegatorAddress: from, validatorAddress: to, amount: coin(amount) });
const redelegate = (from: string, src: string, dst: string, amount: bigint) =>
  pack(MsgBeginRedelegateSchema, { delegatorAddress: from, validatorSrcAddress: src, validatorDstAddress: dst, amount: coin(amount) });

describe('x/staking on a four-validator chain', () => {
  let pos: PosChain;
  const staking = (): StakingKeeper => pos.keeper<StakingKeeper>('staking');

  beforeEach(async () => {
    pos = await startPosChain({ accounts: [[alice, 1000n * TOKEN], [bob, 10n * TOKEN]] });
    await pos.block();
  });

  afterEach(async () => {
    await pos.close();
  });

  test('the four gentx validators are bonded with 100 power each', () => {
    const validators = pos.validators.map((validator) => staking().getValidator(pos.ctx(), validator.key.address)!);
    expect(validators.map((validator) => [validator.status, validator.tokens])).toEqual(Array(4).fill([BondStatus.BONDED, (100n * TOKEN).toString()]));
    expect(staking().getLastTotalPower(pos.ctx())).toBe(400n);
  });

  test('historical info holds the header and the bonded set by power, as the stored validators', async () => {
    await pos.tx(alice, [delegate(alice.bech32, pos.validators[2]!.key.valoper, 5n * TOKEN)]);
    const lastAppHash = pos.chain.store.lastCommitId().hash;
    await pos.block();
    const hist = staking().getHistoricalInfo(pos.ctx(), BigInt(pos.chain.height))!;
    expect(hist.header!.height).toBe(BigInt(pos.chain.height));
    expect(hist.header!.chainId).toBe('testnet_9000-1');
    // The header as the SDK's FinalizeBlock builds it: the app hash is the last committed one.
    expect(Buffer.from(hist.header!.appHash).toString('hex')).toBe(Buffer.from(lastAppHash).toString('hex'));
    expect(lastAppHash.length).toBe(32);
    expect(hist.header!.time).toBeDefined();
    // By power (val2 has 105), then by operator address bytes.
    const expected = [...pos.validators]
      .sort((x, y) => (x === pos.validators[2] ? -1 : y === pos.validators[2] ? 1 : Buffer.compare(Buffer.from(x.key.address), Buffer.from(y.key.address))))
      .map((v) => staking().getValidator(pos.ctx(), v.key.address)!);
    expect(hist.valset).toEqual(expected);
  });

  test('delegate, then unbond: tokens return exactly when the unbonding time has passed', async () => {
    const val = pos.validators[1]!.key;
    const before = balance(pos, alice.address);
    let result = await pos.tx(alice, [delegate(alice.bech32, val.valoper, 50n * TOKEN)]);
    expect(result.log).toBe('');
    expect(balance(pos, alice.address)).toBe(before - 50n * TOKEN);
    const block = await pos.block();
    expect(block.validatorUpdates).toEqual([]); // the update went out with the delegation's block
    expect(staking().getValidator(pos.ctx(), val.address)!.tokens).toBe((150n * TOKEN).toString());

    result = await pos.tx(alice, [undelegate(alice.bech32, val.valoper, 20n * TOKEN)]);
    expect(result.log).toBe('');
    const unbondedAt = pos.chain.height;
    const ubd = staking().getUnbondingDelegation(pos.ctx(), alice.address, val.address)!;
    expect(ubd.entries.map((entry) => [entry.creationHeight, entry.balance])).toEqual([[BigInt(unbondedAt), (20n * TOKEN).toString()]]);
    expect(balance(pos, alice.address)).toBe(before - 50n * TOKEN);
    // 100 s of unbonding: 99 s later nothing is paid, at 100 s it is.
    pos.advance(98_000);
    await pos.block();
    expect(balance(pos, alice.address)).toBe(before - 50n * TOKEN);
    await pos.block();
    expect(balance(pos, alice.address)).toBe(before - 30n * TOKEN);
    expect(staking().getUnbondingDelegation(pos.ctx(), alice.address, val.address)).toBeUndefined();
    expect(staking().getDelegation(pos.ctx(), alice.address, val.address)!.shares).toBe((30n * TOKEN * 10n ** 18n).toString());
  });

  test('redelegate moves bonded tokens at once; the redelegation entry matures after the unbonding time', async () => {
    const [src, dst, third] = [pos.validators[0]!.key, pos.validators[1]!.key, pos.validators[2]!.key];
    await pos.tx(alice, [delegate(alice.bech32, src.valoper, 40n * TOKEN)]);
    const result = await pos.tx(alice, [redelegate(alice.bech32, src.valoper, dst.valoper, 15n * TOKEN)]);
    expect(result.log).toBe('');
    expect(staking().getValidator(pos.ctx(), src.address)!.tokens).toBe((125n * TOKEN).toString());
    expect(staking().getValidator(pos.ctx(), dst.address)!.tokens).toBe((115n * TOKEN).toString());
    expect(staking().getRedelegation(pos.ctx(), alice.address, src.address, dst.address)!.entries).toHaveLength(1);
    // A redelegation out of the validator that is still receiving one is refused (transitive).
    const transitive = await pos.tx(alice, [redelegate(alice.bech32, dst.valoper, third.valoper, TOKEN)]);
    expect(failure(transitive)).toEqual([32, 'staking', failedLog('redelegation to this validator already in progress; first redelegation to this validator must complete before next redelegation')]);
    pos.advance(100_000);
    await pos.block();
    expect(staking().getRedelegation(pos.ctx(), alice.address, src.address, dst.address)).toBeUndefined();
    expect((await pos.tx(alice, [redelegate(alice.bech32, dst.valoper, third.valoper, TOKEN)])).log).toBe('');
  });

  test('cancel-unbond puts part of an unbonding entry back into the delegation', async () => {
    const val = pos.validators[2]!.key;
    await pos.tx(alice, [delegate(alice.bech32, val.valoper, 10n * TOKEN)]);
    await pos.tx(alice, [undelegate(alice.bech32, val.valoper, 6n * TOKEN)]);
    const height = BigInt(pos.chain.height);
    const result = await pos.tx(alice, [pack(MsgCancelUnbondingDelegationSchema, { delegatorAddress: alice.bech32, validatorAddress: val.valoper, amount: coin(4n * TOKEN), creationHeight: height })]);
    expect(result.log).toBe('');
    expect(staking().getUnbondingDelegation(pos.ctx(), alice.address, val.address)!.entries.map((entry) => entry.balance)).toEqual([(2n * TOKEN).toString()]);
    expect(staking().getValidator(pos.ctx(), val.address)!.tokens).toBe((108n * TOKEN).toString());
    const wrongHeight = await pos.tx(alice, [pack(MsgCancelUnbondingDelegationSchema, { delegatorAddress: alice.bech32, validatorAddress: val.valoper, amount: coin(TOKEN), creationHeight: height + 1n })]);
    expect(failure(wrongHeight)).toEqual([26, 'staking', failedLog(`unbonding delegation entry is not found at block height ${height + 1n}: no unbonding delegation found`)]);
  });

  test('unbonding the whole self-delegation below the minimum jails the validator and drops it from the set', async () => {
    const val = pos.validators[3]!;
    const result = await pos.tx(val.key, [undelegate(val.key.bech32, val.key.valoper, 100n * TOKEN)], {});
    expect(result.log).toBe('');
    const stored = staking().getValidator(pos.ctx(), val.key.address)!;
    expect(stored.jailed).toBe(true);
    expect(stored.status).toBe(BondStatus.UNBONDING);
    expect(staking().getLastTotalPower(pos.ctx())).toBe(300n);
  });

  test('edit-validator: commission changes respect max rate, max change rate and once per 24 h', async () => {
    const val = pos.validators[0]!.key;
    const edit = (rate: string) => pack(MsgEditValidatorSchema, { validatorAddress: val.valoper, description: create(DescriptionSchema, { moniker: '[do-not-modify]', identity: '[do-not-modify]', website: '[do-not-modify]', securityContact: '[do-not-modify]', details: 'edited' }), commissionRate: legacyDecToWire(rate), minSelfDelegation: '' });
    // Created at genesis (time 0 of the chain): the first change must wait 24 h.
    expect(failure(await pos.tx(val, [edit('0.105')]))).toEqual([12, 'staking', failedLog('commission cannot be changed more than once in 24h')]);
    pos.advance(24 * 3600 * 1000);
    expect(failure(await pos.tx(val, [edit('0.3')]))).toEqual([11, 'staking', failedLog('commission cannot be more than the max rate')]);
    expect(failure(await pos.tx(val, [edit('0.15')]))).toEqual([15, 'staking', failedLog('commission cannot be changed more than max change rate')]);
    expect((await pos.tx(val, [edit('0.105')])).log).toBe('');
    const stored = staking().getValidator(pos.ctx(), val.address)!;
    expect([stored.commission!.commissionRates!.rate, stored.description!.moniker, stored.description!.details]).toEqual([legacyDecToWire('0.105'), 'validator-0', 'edited']);
    expect(failure(await pos.tx(val, [edit('0.1')]))).toEqual([12, 'staking', failedLog('commission cannot be changed more than once in 24h')]);
  });

  test.each([
    ['more than the balance', () => delegate(bob.bech32, pos.validators[0]!.key.valoper, 11n * TOKEN), [5, 'sdk', failedLog(`failed to delegate; ${10n * TOKEN}attotoken is smaller than ${11n * TOKEN}attotoken: insufficient funds`)]],
    ['to an unknown validator', () => delegate(bob.bech32, alice.valoper, TOKEN), [3, 'staking', failedLog('validator does not exist')]],
    ['in another denom', () => delegate(bob.bech32, pos.validators[0]!.key.valoper, TOKEN, 'other'), [18, 'sdk', failedLog('invalid coin denomination: got other, expected attotoken: invalid request')]],
    ['unbonding more than delegated', () => undelegate(bob.bech32, pos.validators[0]!.key.valoper, TOKEN), [19, 'staking', failedLog('no delegation for (address, validator) tuple')]],
    ['a redelegation to the same validator', () => redelegate(pos.validators[0]!.key.bech32, pos.validators[0]!.key.valoper, pos.validators[0]!.key.valoper, TOKEN), [29, 'staking', failedLog('cannot redelegate to the same validator')]],
  ])('refuses %s with the SDK error and changes nothing', async (_name, msg, expected) => {
    const signer = (msg().value.length > 0 && _name === 'a redelegation to the same validator') ? pos.validators[0]!.key : bob;
    const before = [balance(pos, signer.address), staking().getValidator(pos.ctx(), pos.validators[0]!.key.address)!.tokens];
    const result = await pos.tx(signer, [msg()]);
    expect(failure(result)).toEqual(expected);
    expect([balance(pos, signer.address), staking().getValidator(pos.ctx(), pos.validators[0]!.key.address)!.tokens]).toEqual(before);
  });

  test('an invalid decimal commission rate → sdk 18, nothing changes', async () => {
    const val = pos.validators[0]!.key;
    const edit = pack(MsgEditValidatorSchema, { validatorAddress: val.valoper, description: create(DescriptionSchema, { moniker: '[do-not-modify]', identity: '[do-not-modify]', website: '[do-not-modify]', securityContact: '[do-not-modify]', details: '[do-not-modify]' }), commissionRate: '1.5x', minSelfDelegation: '' });
    expect(failure(await pos.tx(val, [edit]))).toEqual([18, 'sdk', failedLog('invalid commission rate: 1.5x: invalid request')]);
    expect(staking().getValidator(pos.ctx(), val.address)!.commission!.commissionRates!.rate).toBe(legacyDecToWire('0.1'));
  });

  test('unbonding more than the delegation → sdk 18 invalid shares amount', async () => {
    const val = pos.validators[0]!.key;
    await pos.tx(bob, [delegate(bob.bech32, val.valoper, TOKEN)]);
    expect(failure(await pos.tx(bob, [undelegate(bob.bech32, val.valoper, 2n * TOKEN)]))).toEqual([18, 'sdk', failedLog('invalid shares amount: invalid request')]);
    expect(staking().getDelegation(pos.ctx(), bob.address, val.address)!.shares).toBe((TOKEN * 10n ** 18n).toString());
  });

  test('a jailed validator takes no delegations (staking 7)', async () => {
    const val = pos.validators[3]!;
    await pos.tx(val.key, [undelegate(val.key.bech32, val.key.valoper, 100n * TOKEN)]);
    expect(failure(await pos.tx(bob, [delegate(bob.bech32, val.key.valoper, TOKEN)]))).toEqual([7, 'staking', failedLog('validator for this address is currently jailed')]);
  });

  test('max_entries unbonding entries per pair, then staking 27', async () => {
    const val = pos.validators[0]!.key;
    await pos.tx(alice, [delegate(alice.bech32, val.valoper, 10n * TOKEN)]);
    for (let i = 0; i < 7; i++) expect((await pos.tx(alice, [undelegate(alice.bech32, val.valoper, TOKEN)])).log).toBe('');
    expect(failure(await pos.tx(alice, [undelegate(alice.bech32, val.valoper, TOKEN)]))).toEqual([27, 'staking', failedLog('too many unbonding delegation entries for (delegator, validator) tuple')]);
  });
});

describe('the network staking params', () => {
  test('accept_all_validators false refuses MsgCreateValidator; /aioz.staking.v1beta1.Query/Params reports it', async () => {
    const carol = testKey('pos-carol');
    const pos = await startPosChain({
      accounts: [[carol, 100n * TOKEN]],
      edit: (state) => {
        ((state.staking as JsonObject).params as JsonObject).accept_all_validators = false;
      },
    });
    try {
      const msg = pack(MsgCreateValidatorSchema, {
        description: create(DescriptionSchema, { moniker: 'carol' }),
        commission: create(CommissionRatesSchema, { rate: legacyDecToWire('0.1'), maxRate: legacyDecToWire('0.2'), maxChangeRate: legacyDecToWire('0.01') }),
        minSelfDelegation: '1',
        validatorAddress: carol.valoper,
        pubkey: pack(Ed25519PubKeySchema, { key: consensusKey(carol.bech32) }),
        value: coin(10n * TOKEN),
      });
      const result = await pos.tx(carol, [msg]);
      expect(failure(result)).toEqual([4, 'sdk', failedLog('creating validators is disabled (accept_all_validators is false); a validator is admitted by a governance proposal: unauthorized')]);
      expect(balance(pos, carol.address)).toBe(100n * TOKEN);
      const exported = (await pos.manager.get('staking')!.instance.genesis!.export(pos.ctx())) as JsonObject;
      expect((exported.params as JsonObject).accept_all_validators).toBe(false);
    } finally {
      await pos.close();
    }
  });
});
