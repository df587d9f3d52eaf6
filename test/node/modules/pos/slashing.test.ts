/**
 * x/slashing on a four-validator chain (window 10 blocks, min signed 50 %, jail 60 s, downtime
 * slash 1 %): a validator that stops signing is jailed after the window and its delegators lose
 * exactly the slash fraction; unjail is refused before the jail time and works after it.
 */
import { create, toBinary } from '@bufbuild/protobuf';
import { MsgUnjailSchema } from '../../../../src/gen/cosmos/slashing/v1beta1/tx_pb.js';
import { QuerySigningInfoRequestSchema, QuerySigningInfoResponseSchema } from '../../../../src/gen/cosmos/slashing/v1beta1/query_pb.js';
import { MsgDelegateSchema } from '../../../../src/gen/cosmos/staking/v1beta1/tx_pb.js';
import { consString } from '../../../../src/node/modules/shared/address.js';
import type { StakingKeeper } from '../../../../src/node/modules/staking/keeper.js';
import { BondStatus } from '../../../../src/node/modules/staking/validator.js';
import { abciQuery, coin, pack, testKey } from '../../app/helpers.js';
import { TOKEN, failedLog, failure, startPosChain, type PosChain } from './helpers.js';

const alice = testKey('slash-alice');

describe('x/slashing on a four-validator chain', () => {
  let pos: PosChain;
  const staking = (): StakingKeeper => pos.keeper<StakingKeeper>('staking');

  beforeEach(async () => {
    pos = await startPosChain({ accounts: [[alice, 1000n * TOKEN]] });
  });

  afterEach(async () => {
    await pos.close();
  });

  test('downtime: jailed after the window with exactly the downtime slash; unjail after the jail time', async () => {
    const val3 = pos.validators[3]!;
    expect((await pos.tx(alice, [pack(MsgDelegateSchema, { delegatorAddress: alice.bech32, validatorAddress: val3.key.valoper, amount: coin(100n * TOKEN) })])).log).toBe('');
    // val3 stops signing until it is jailed.
    let jailedAt = 0;
    for (let i = 0; i < 20 && jailedAt === 0; i++) {
      await pos.block({ absent: [3] });
      if (staking().getValidator(pos.ctx(), val3.key.address)!.jailed) jailedAt = pos.chain.height;
    }
    expect(jailedAt).toBeGreaterThan(10);
    const validator = staking().getValidator(pos.ctx(), val3.key.address)!;
    // 1 % of 200 power × 10^18.
    expect(validator.tokens).toBe((198n * TOKEN).toString());
    expect(validator.status).toBe(BondStatus.UNBONDING);
    const delegation = staking().getDelegation(pos.ctx(), alice.address, val3.key.address)!;
    expect(staking().tokensFromShares(validator, BigInt(delegation.shares)) / 10n ** 18n).toBe(99n * TOKEN);

    const { value } = await abciQuery(pos.chain.app, '/cosmos.slashing.v1beta1.Query/SigningInfo', toBinary(QuerySigningInfoRequestSchema, create(QuerySigningInfoRequestSchema, { consAddress: consString(val3.consAddr) })), QuerySigningInfoResponseSchema);
    expect(value!.valSigningInfo!.missedBlocksCounter).toBe(0n);
    expect(Number(value!.valSigningInfo!.jailedUntil!.seconds) * 1000).toBe(pos.nextTime().getTime() - 1000 + 60_000);

    const unjail = pack(MsgUnjailSchema, { validatorAddr: val3.key.valoper });
    expect(failure(await pos.tx(val3.key, [unjail]))).toEqual([4, 'slashing', failedLog('validator still jailed; cannot be unjailed')]);
    pos.advance(60_000);
    expect((await pos.tx(val3.key, [unjail])).log).toBe('');
    expect(staking().getValidator(pos.ctx(), val3.key.address)!.status).toBe(BondStatus.BONDED);
    expect(staking().getLastTotalPower(pos.ctx())).toBe(300n + 198n);
    expect(failure(await pos.tx(val3.key, [unjail]))).toEqual([5, 'slashing', failedLog('validator not jailed; cannot be unjailed')]);
  });

  test('unjail of an address that is no validator → slashing 2', async () => {
    expect(failure(await pos.tx(alice, [pack(MsgUnjailSchema, { validatorAddr: alice.valoper })]))).toEqual([2, 'slashing', failedLog('address is not associated with any known validator')]);
  });
});
