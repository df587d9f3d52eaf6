/**
 * The slashing keeper (x/slashing/keeper, SDK 0.46): per-validator signing info kept from the
 * last-commit votes over a sliding window of `signed_blocks_window` blocks; a validator that
 * missed more than the window allows is slashed by `slash_fraction_downtime` and jailed for
 * `downtime_jail_duration`; double signs (handed in by evidence) slash by
 * `slash_fraction_double_sign` and tombstone; MsgUnjail after the jail time.
 */
import { create } from '@bufbuild/protobuf';
import { timestampDate, timestampFromMs } from '@bufbuild/protobuf/wkt';
import { ValidatorSigningInfoSchema, type ValidatorSigningInfo } from '../../../gen/cosmos/slashing/v1beta1/slashing_pb.js';
import { consString } from '../shared/address.js';
import type { Context } from '../shared/context.js';
import { DEC_ONE, decFromWire, decTruncate, type Dec } from '../shared/dec.js';
import { newEvent } from '../shared/events.js';
import { SlashingErrors } from './errors.js';
import type { SlashingStakingKeeper } from './expectedKeepers.js';
import { MissedBlocks, Params, SigningInfos } from './keys.js';
import { decOfBytes, defaultSlashingParams, type SlashingParams } from './params.js';

/** sdk.ValidatorUpdateDelay. */
export const VALIDATOR_UPDATE_DELAY = 1;

function durationMs(duration: { seconds: bigint; nanos: number } | undefined): number {
  return duration === undefined ? 0 : Number(duration.seconds) * 1000 + Math.floor(duration.nanos / 1e6);
}

export class SlashingKeeper {
  constructor(readonly stakingKeeper: SlashingStakingKeeper) {}

  getParams(ctx: Context): SlashingParams {
    return Params.get(ctx) ?? defaultSlashingParams();
  }

  setParams(ctx: Context, params: SlashingParams): void {
    Params.set(ctx, params);
  }

  /** MinSignedPerWindow in blocks: min_signed_per_window × window, rounded. */
  minSignedPerWindow(ctx: Context, params: SlashingParams = this.getParams(ctx)): bigint {
    const product = decOfBytes(params.minSignedPerWindow) * params.signedBlocksWindow;
    const whole = product / DEC_ONE;
    const rest = product % DEC_ONE;
    return rest * 2n > DEC_ONE || (rest * 2n === DEC_ONE && whole % 2n === 1n) ? whole + 1n : whole;
  }

  getSigningInfo(ctx: Context, consAddr: Uint8Array): ValidatorSigningInfo | undefined {
    return SigningInfos.get(ctx, consAddr);
  }

  setSigningInfo(ctx: Context, consAddr: Uint8Array, info: ValidatorSigningInfo): void {
    SigningInfos.set(ctx, consAddr, info);
  }

  /** AfterValidatorBonded: a first bonding starts the signing record. */
  afterValidatorBonded(ctx: Context, consAddr: Uint8Array): void {
    if (SigningInfos.has(ctx, consAddr)) return;
    this.setSigningInfo(
      ctx,
      consAddr,
      create(ValidatorSigningInfoSchema, { address: consString(consAddr), startHeight: BigInt(ctx.blockHeight), indexOffset: 0n, jailedUntil: timestampFromMs(0), tombstoned: false, missedBlocksCounter: 0n }),
    );
  }

  private async clearMissedBlocks(ctx: Context, consAddr: Uint8Array): Promise<void> {
    const keys = [];
    for await (const key of MissedBlocks.keys(ctx, { prefix: [consAddr] })) keys.push(key);
    for (const key of keys) MissedBlocks.remove(ctx, key);
  }

  /** BeginBlocker: every vote of the last commit. */
  async beginBlock(ctx: Context): Promise<void> {
    const params = this.getParams(ctx);
    for (const vote of ctx.cometInfo.lastCommit.votes) await this.handleValidatorSignature(ctx, vote.validatorAddress, vote.power, vote.blockIdFlag !== 1, params);
  }

  /** HandleValidatorSignature. */
  async handleValidatorSignature(ctx: Context, consAddr: Uint8Array, power: bigint, signed: boolean, params: SlashingParams = this.getParams(ctx)): Promise<void> {
    const height = BigInt(ctx.blockHeight);
    const info = this.getSigningInfo(ctx, consAddr);
    // The SDK panics here; a vote from a validator this state never bonded is skipped instead.
    if (info === undefined) return;
    const window = params.signedBlocksWindow;
    const index = info.indexOffset % window;
    let indexOffset = info.indexOffset + 1n;
    let missedCounter = info.missedBlocksCounter;
    const previous = MissedBlocks.get(ctx, [consAddr, index]) ?? false;
    const missed = !signed;
    if (!previous && missed) {
      MissedBlocks.set(ctx, [consAddr, index], true);
      missedCounter++;
    } else if (previous && !missed) {
      MissedBlocks.remove(ctx, [consAddr, index]);
      missedCounter--;
    }
    const minSigned = this.minSignedPerWindow(ctx, params);
    if (missed) ctx.events.emit(newEvent('liveness', ['address', consString(consAddr)], ['missed_blocks', missedCounter.toString()], ['height', height.toString()]));
    const minHeight = info.startHeight + window;
    const maxMissed = window - minSigned;
    let jailedUntil = info.jailedUntil;
    if (height > minHeight && missedCounter > maxMissed) {
      const validator = this.stakingKeeper.getValidatorByConsAddr(ctx, consAddr);
      if (validator !== undefined && !validator.jailed) {
        const distributionHeight = Number(height) - VALIDATOR_UPDATE_DELAY - 1;
        ctx.events.emit(newEvent('slash', ['address', consString(consAddr)], ['power', power.toString()], ['reason', 'missing_signature'], ['jailed', consString(consAddr)]));
        await this.stakingKeeper.slash(ctx, consAddr, distributionHeight, power, decOfBytes(params.slashFractionDowntime));
        this.stakingKeeper.jail(ctx, consAddr);
        jailedUntil = timestampFromMs(ctx.blockTime.getTime() + durationMs(params.downtimeJailDuration));
        missedCounter = 0n;
        indexOffset = 0n;
        await this.clearMissedBlocks(ctx, consAddr);
      }
    }
    this.setSigningInfo(ctx, consAddr, create(ValidatorSigningInfoSchema, { ...info, indexOffset, missedBlocksCounter: missedCounter, jailedUntil }));
  }

  isTombstoned(ctx: Context, consAddr: Uint8Array): boolean {
    return this.getSigningInfo(ctx, consAddr)?.tombstoned ?? false;
  }

  /** Slash for a double sign (evidence): emits the slash event and slashes through staking. */
  async slashDoubleSign(ctx: Context, consAddr: Uint8Array, fraction: Dec, power: bigint, distributionHeight: number): Promise<void> {
    ctx.events.emit(newEvent('slash', ['address', consString(consAddr)], ['power', power.toString()], ['reason', 'double_sign']));
    await this.stakingKeeper.slash(ctx, consAddr, distributionHeight, power, fraction);
  }

  slashFractionDoubleSign(ctx: Context): Dec {
    return decOfBytes(this.getParams(ctx).slashFractionDoubleSign);
  }

  jail(ctx: Context, consAddr: Uint8Array): void {
    ctx.events.emit(newEvent('slash', ['jailed', consString(consAddr)]));
    this.stakingKeeper.jail(ctx, consAddr);
  }

  jailUntil(ctx: Context, consAddr: Uint8Array, ms: number): void {
    const info = this.getSigningInfo(ctx, consAddr);
    if (info === undefined) throw new Error('cannot jail validator that does not have any signing information');
    this.setSigningInfo(ctx, consAddr, create(ValidatorSigningInfoSchema, { ...info, jailedUntil: timestampFromMs(ms) }));
  }

  tombstone(ctx: Context, consAddr: Uint8Array): void {
    const info = this.getSigningInfo(ctx, consAddr);
    if (info === undefined) throw new Error('cannot tombstone validator that does not have any signing information');
    if (info.tombstoned) throw new Error('cannot tombstone validator that is already tombstoned');
    this.setSigningInfo(ctx, consAddr, create(ValidatorSigningInfoSchema, { ...info, tombstoned: true }));
  }

  /** Unjail (MsgUnjail). */
  unjail(ctx: Context, valAddr: Uint8Array): void {
    const validator = this.stakingKeeper.getValidator(ctx, valAddr);
    if (validator === undefined) throw SlashingErrors.NoValidatorForAddress.error();
    const selfDelegation = this.stakingKeeper.getDelegation(ctx, valAddr, valAddr);
    if (selfDelegation === undefined) throw SlashingErrors.MissingSelfDelegation.error();
    const tokens = decTruncate(this.stakingKeeper.tokensFromShares(validator, decFromWire(selfDelegation.shares) ?? 0n));
    const minSelf = BigInt(validator.minSelfDelegation || '0');
    if (tokens < minSelf) throw SlashingErrors.SelfDelegationTooLowToUnjail.wrap(`${tokens} less than ${minSelf}`);
    if (!validator.jailed) throw SlashingErrors.ValidatorNotJailed.error();
    const consAddr = this.stakingKeeper.consAddress(validator);
    const info = this.getSigningInfo(ctx, consAddr);
    if (info !== undefined) {
      if (info.tombstoned) throw SlashingErrors.ValidatorJailed.error();
      if (info.jailedUntil !== undefined && ctx.blockTime.getTime() < timestampDate(info.jailedUntil).getTime()) throw SlashingErrors.ValidatorJailed.error();
    }
    this.stakingKeeper.unjail(ctx, consAddr);
  }
}
