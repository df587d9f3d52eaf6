/**
 * x/evidence on a four-validator chain: a duplicate vote handed over by consensus produces an
 * Equivocation, a slash of slash_fraction_double_sign at the infraction height, a jail forever
 * and a tombstone; the evidence is queryable; MsgSubmitEvidence for the same evidence, an unknown
 * validator or too-old evidence is refused with the SDK's codes.
 */
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { EquivocationSchema } from '../../../../src/gen/cosmos/evidence/v1beta1/evidence_pb.js';
import { QueryAllEvidenceRequestSchema, QueryAllEvidenceResponseSchema, QueryEvidenceRequestSchema, QueryEvidenceResponseSchema } from '../../../../src/gen/cosmos/evidence/v1beta1/query_pb.js';
import { MsgSubmitEvidenceSchema } from '../../../../src/gen/cosmos/evidence/v1beta1/tx_pb.js';
import { MsgUnjailSchema } from '../../../../src/gen/cosmos/slashing/v1beta1/tx_pb.js';
import { anyPack } from '../../../../src/node/codec/index.js';
import { defaultConsensusParams } from '../../../../src/node/consensus/types/params.js';
import { equivocationHash, type EvidenceKeeper } from '../../../../src/node/modules/evidence/keeper.js';
import { consString } from '../../../../src/node/modules/shared/address.js';
import { Context } from '../../../../src/node/modules/shared/context.js';
import type { SdkError } from '../../../../src/node/modules/shared/errors.js';
import type { SlashingKeeper } from '../../../../src/node/modules/slashing/keeper.js';
import type { StakingKeeper } from '../../../../src/node/modules/staking/keeper.js';
import { abciQuery, pack, testKey } from '../../app/helpers.js';
import { CHAIN_ID, TOKEN, failedLog, failure, startPosChain, type PosChain } from './helpers.js';

const alice = testKey('evidence-alice');

describe('x/evidence on a four-validator chain', () => {
  let pos: PosChain;

  beforeEach(async () => {
    pos = await startPosChain({ accounts: [[alice, 100n * TOKEN]] });
    await pos.block();
    await pos.block();
  });

  afterEach(async () => {
    await pos.close();
  });

  test('a double sign from consensus: evidence, slash, jail forever, tombstone', async () => {
    const val2 = pos.validators[2]!;
    const infraction = pos.chain.height - 1;
    const time = new Date(pos.nextTime().getTime() - 2000);
    await pos.block({ extra: { misbehavior: [{ type: 'duplicate_vote', validatorAddress: val2.consAddr, power: 100n, height: infraction, time, totalVotingPower: 400n }] } });
    const staking = pos.keeper<StakingKeeper>('staking');
    const validator = staking.getValidator(pos.ctx(), val2.key.address)!;
    expect([validator.jailed, validator.tokens]).toEqual([true, (95n * TOKEN).toString()]);
    const info = pos.keeper<SlashingKeeper>('slashing').getSigningInfo(pos.ctx(), val2.consAddr)!;
    expect(info.tombstoned).toBe(true);
    expect(new Date(Number(info.jailedUntil!.seconds) * 1000).toISOString()).toBe('9999-12-31T23:59:59.000Z');

    const equivocation = create(EquivocationSchema, { height: BigInt(infraction), time: timestampFromDate(time), power: 100n, consensusAddress: consString(val2.consAddr) });
    const hash = equivocationHash(equivocation);
    const one = await abciQuery(pos.chain.app, '/cosmos.evidence.v1beta1.Query/Evidence', toBinary(QueryEvidenceRequestSchema, create(QueryEvidenceRequestSchema, { evidenceHash: hash })), QueryEvidenceResponseSchema);
    expect(fromBinary(EquivocationSchema, one.value!.evidence!.value)).toEqual(equivocation);
    const all = await abciQuery(pos.chain.app, '/cosmos.evidence.v1beta1.Query/AllEvidence', toBinary(QueryAllEvidenceRequestSchema, create(QueryAllEvidenceRequestSchema)), QueryAllEvidenceResponseSchema);
    expect(all.value!.evidence).toHaveLength(1);

    // Submitting it again: evidence 5; unjailing a tombstoned validator: slashing 4.
    const again = await pos.tx(alice, [pack(MsgSubmitEvidenceSchema, { submitter: alice.bech32, evidence: anyPack(EquivocationSchema, equivocation) })]);
    expect(failure(again)).toEqual([5, 'evidence', failedLog(`${Buffer.from(hash).toString('hex').toUpperCase()}: evidence already exists`)]);
    pos.advance(10 ** 9);
    expect(failure(await pos.tx(val2.key, [pack(MsgUnjailSchema, { validatorAddr: val2.key.valoper })]))).toEqual([4, 'slashing', failedLog('validator still jailed; cannot be unjailed')]);
  });

  test('MsgSubmitEvidence slashes and tombstones a double signer', async () => {
    const val1 = pos.validators[1]!;
    const equivocation = create(EquivocationSchema, { height: BigInt(pos.chain.height - 1), time: timestampFromDate(new Date(pos.nextTime().getTime() - 3000)), power: 100n, consensusAddress: consString(val1.consAddr) });
    const result = await pos.tx(alice, [pack(MsgSubmitEvidenceSchema, { submitter: alice.bech32, evidence: anyPack(EquivocationSchema, equivocation) })]);
    expect(result.log).toBe('');
    expect(pos.keeper<StakingKeeper>('staking').getValidator(pos.ctx(), val1.key.address)!.tokens).toBe((95n * TOKEN).toString());
    expect(pos.keeper<SlashingKeeper>('slashing').isTombstoned(pos.ctx(), val1.consAddr)).toBe(true);
  });

  test('evidence for an unknown validator → evidence 3, nothing changes', async () => {
    const stranger = create(EquivocationSchema, { height: 1n, time: timestampFromDate(new Date('2024-01-01T00:00:01Z')), power: 100n, consensusAddress: consString(new Uint8Array(20).fill(7)) });
    const result = await pos.tx(alice, [pack(MsgSubmitEvidenceSchema, { submitter: alice.bech32, evidence: anyPack(EquivocationSchema, stranger) })]);
    expect(failure(result)).toEqual([3, 'evidence', failedLog(`no bonded or unbonding validator with consensus address ${stranger.consensusAddress}: invalid evidence`)]);
    const invalid = create(EquivocationSchema, { ...stranger, height: 0n });
    expect(failure(await pos.tx(alice, [pack(MsgSubmitEvidenceSchema, { submitter: alice.bech32, evidence: anyPack(EquivocationSchema, invalid) })]))).toEqual([3, 'evidence', failedLog('invalid equivocation height: 0: invalid evidence')]);
  });

  test('evidence older than both max age limits → evidence 3 (too old)', async () => {
    const val0 = pos.validators[0]!;
    const params = { ...defaultConsensusParams(), evidence: { maxAgeNumBlocks: 1n, maxAgeDurationNs: 1n, maxBytes: 1048576n } };
    const ctx = new Context({ mode: 'finalize', multiStore: pos.chain.store.branchCommitted(), header: { height: pos.chain.height + 1, time: pos.nextTime(), chainId: CHAIN_ID, proposerAddress: new Uint8Array(20), hash: new Uint8Array(32), nextValidatorsHash: new Uint8Array(32) }, consensusParams: params });
    const old = create(EquivocationSchema, { height: 1n, time: timestampFromDate(new Date('2024-01-01T00:00:01Z')), power: 100n, consensusAddress: consString(val0.consAddr) });
    await expect(pos.keeper<EvidenceKeeper>('evidence').submitEvidence(ctx, old)).rejects.toMatchObject({ message: 'evidence from height 1 is too old: invalid evidence' } satisfies Partial<SdkError>);
  });
});
