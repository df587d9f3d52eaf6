/**
 * The evidence keeper (x/evidence/keeper, SDK 0.46): duplicate-vote misbehaviour handed over by
 * consensus (BeginBlock) and Equivocations submitted by MsgSubmitEvidence are checked — not too
 * old by both blocks and time (consensus params), the validator exists and is not unbonded nor
 * already tombstoned — then slashed by slash_fraction_double_sign at the infraction height,
 * jailed forever and tombstoned, and stored by hash.
 */
import { create, toBinary } from '@bufbuild/protobuf';
import { timestampDate, timestampFromDate, type Any } from '@bufbuild/protobuf/wkt';
import { EquivocationSchema, type Equivocation } from '../../../gen/cosmos/evidence/v1beta1/evidence_pb.js';
import { sha256 } from '../../../keyring/hash.js';
import { anyPack } from '../../codec/index.js';
import { consString, parseConsAddress } from '../shared/address.js';
import type { Context } from '../shared/context.js';
import { newEvent } from '../shared/events.js';
import { EvidenceErrors } from './errors.js';
import type { EvidenceSlashingKeeper, EvidenceStakingKeeper } from './expectedKeepers.js';
import { Evidence } from './keys.js';

/** evidencetypes.DoubleSignJailEndTime: 9999-12-31T23:59:59Z. */
export const DOUBLE_SIGN_JAIL_END_MS = Date.UTC(9999, 11, 31, 23, 59, 59);
const VALIDATOR_UPDATE_DELAY = 1;

/** Equivocation.Hash: sha256 of its protobuf bytes. */
export function equivocationHash(evidence: Equivocation): Uint8Array {
  return sha256(toBinary(EquivocationSchema, evidence));
}

/** Equivocation.ValidateBasic; the problem, or undefined. */
export function equivocationProblem(evidence: Equivocation): string | undefined {
  if (evidence.time === undefined || timestampDate(evidence.time).getTime() <= 0) return `invalid equivocation time: ${evidence.time === undefined ? 'none' : timestampDate(evidence.time).toISOString()}`;
  if (evidence.height < 1n) return `invalid equivocation height: ${evidence.height}`;
  if (evidence.power < 1n) return `invalid equivocation validator power: ${evidence.power}`;
  if (!parseConsAddress(evidence.consensusAddress).ok) return `invalid equivocation validator consensus address: ${evidence.consensusAddress}`;
  return undefined;
}

export type Outcome = 'handled' | 'too_old' | 'unknown_validator' | 'tombstoned';

export class EvidenceKeeper {
  constructor(
    readonly stakingKeeper: EvidenceStakingKeeper,
    readonly slashingKeeper: EvidenceSlashingKeeper,
  ) {}

  getEvidence(ctx: Context, hash: Uint8Array): Any | undefined {
    return Evidence.get(ctx, hash);
  }

  setEvidence(ctx: Context, evidence: Equivocation): Uint8Array {
    const hash = equivocationHash(evidence);
    Evidence.set(ctx, hash, anyPack(EquivocationSchema, evidence));
    return hash;
  }

  /** BeginBlocker: duplicate votes become Equivocations; light-client attacks are ignored (as the SDK). */
  async beginBlock(ctx: Context): Promise<void> {
    for (const misbehaviour of ctx.cometInfo.misbehavior) {
      if (misbehaviour.type !== 'duplicate_vote') continue;
      const evidence = create(EquivocationSchema, {
        height: BigInt(misbehaviour.height),
        time: timestampFromDate(misbehaviour.time),
        power: misbehaviour.power,
        consensusAddress: consString(misbehaviour.validatorAddress),
      });
      await this.handleEquivocation(ctx, evidence);
    }
  }

  /** HandleEquivocationEvidence; says what happened (only 'handled' changes state). */
  async handleEquivocation(ctx: Context, evidence: Equivocation): Promise<Outcome> {
    const parsed = parseConsAddress(evidence.consensusAddress);
    if (!parsed.ok) return 'unknown_validator';
    const consAddr = parsed.bytes;
    const infractionHeight = Number(evidence.height);
    const ageMs = ctx.blockTime.getTime() - (evidence.time === undefined ? 0 : timestampDate(evidence.time).getTime());
    const ageBlocks = BigInt(ctx.blockHeight - infractionHeight);
    const params = ctx.consensusParams?.evidence;
    if (params !== undefined && BigInt(ageMs) * 1_000_000n > params.maxAgeDurationNs && ageBlocks > params.maxAgeNumBlocks) return 'too_old';
    const validator = this.stakingKeeper.getValidatorByConsAddr(ctx, consAddr);
    if (validator === undefined || validator.status === 1) return 'unknown_validator';
    if (this.slashingKeeper.getSigningInfo(ctx, consAddr) === undefined) throw new Error(`expected signing info for validator ${evidence.consensusAddress} but not found`);
    if (this.slashingKeeper.isTombstoned(ctx, consAddr)) return 'tombstoned';
    const distributionHeight = infractionHeight - VALIDATOR_UPDATE_DELAY;
    await this.slashingKeeper.slashDoubleSign(ctx, consAddr, this.slashingKeeper.slashFractionDoubleSign(ctx), evidence.power, distributionHeight);
    if (!this.stakingKeeper.getValidatorByConsAddr(ctx, consAddr)!.jailed) this.slashingKeeper.jail(ctx, consAddr);
    this.slashingKeeper.jailUntil(ctx, consAddr, DOUBLE_SIGN_JAIL_END_MS);
    this.slashingKeeper.tombstone(ctx, consAddr);
    this.setEvidence(ctx, evidence);
    return 'handled';
  }

  /** SubmitEvidence (MsgSubmitEvidence): the same checks, refused with a clear error instead of ignored. */
  async submitEvidence(ctx: Context, evidence: Equivocation): Promise<Uint8Array> {
    const hash = equivocationHash(evidence);
    if (Evidence.has(ctx, hash)) throw EvidenceErrors.EvidenceExists.wrap(Buffer.from(hash).toString('hex').toUpperCase());
    const outcome = await this.handleEquivocation(ctx, evidence);
    if (outcome === 'too_old') throw EvidenceErrors.InvalidEvidence.wrap(`evidence from height ${evidence.height} is too old`);
    if (outcome === 'unknown_validator') throw EvidenceErrors.InvalidEvidence.wrap(`no bonded or unbonding validator with consensus address ${evidence.consensusAddress}`);
    if (outcome === 'tombstoned') throw EvidenceErrors.InvalidEvidence.wrap(`validator ${evidence.consensusAddress} is already tombstoned`);
    ctx.events.emit(newEvent('submit_evidence', ['evidence_hash', Buffer.from(hash).toString('hex').toUpperCase()]));
    return hash;
  }
}
