/**
 * The routing records (x/bech32ibc keeper): the chain's own bech32 prefix, and per foreign prefix
 * the transfer channel (and packet timeout offsets) that reaches its chain, edited by governance.
 */
import { create } from '@bufbuild/protobuf';
import { HrpIbcRecordSchema, type HrpIbcRecord } from '../../../gen/bech32ibc/bech32ibc/v1beta1/types_pb.js';
import type { UpdateHrpIbcChannelProposal } from '../../../gen/bech32ibc/bech32ibc/v1beta1/gov_pb.js';
import type { Context } from '../shared/context.js';
import { Bech32IbcErrors, validateHrp } from './errors.js';
import type { Bech32IbcChannelKeeper } from './expectedKeepers.js';
import { HrpIbcRecords, NativeHrp } from './keys.js';

/** The port records route over (the transfer module's bound port, ibc-go's default). */
export const TRANSFER_PORT = 'transfer';

export class Bech32IbcKeeper {
  constructor(private readonly channels: Bech32IbcChannelKeeper) {}

  /** The native prefix; ErrNoNativeHrp when none was set. */
  getNativeHrp(ctx: Context): string {
    const hrp = NativeHrp.get(ctx);
    if (hrp === undefined) throw Bech32IbcErrors.NoNativeHrp.error();
    return hrp;
  }

  setNativeHrp(ctx: Context, hrp: string): void {
    validateHrp(hrp);
    NativeHrp.set(ctx, hrp);
  }

  /** The record of `hrp`; ErrRecordNotFound "hrp record not found for <hrp>" when there is none. */
  getHrpIbcRecord(ctx: Context, hrp: string): HrpIbcRecord {
    const record = HrpIbcRecords.get(ctx, hrp);
    if (record === undefined) throw Bech32IbcErrors.RecordNotFound.wrap(`hrp record not found for ${hrp}`);
    return record;
  }

  /** Every record, in prefix order. */
  async getHrpIbcRecords(ctx: Context): Promise<HrpIbcRecord[]> {
    const records: HrpIbcRecord[] = [];
    for await (const record of HrpIbcRecords.values(ctx)) records.push(record);
    return records;
  }

  /** Stores a record; one with an empty source channel removes the prefix's record instead. */
  setHrpIbcRecord(ctx: Context, record: HrpIbcRecord): void {
    if (record.sourceChannel === '') HrpIbcRecords.remove(ctx, record.hrp);
    else HrpIbcRecords.set(ctx, record.hrp, record);
  }

  /**
   * Carries out an UpdateHrpIbcChannelProposal: the prefix must be valid and the channel must exist
   * on the transfer port; an empty channel removes the record (checked before the channel lookup,
   * which an empty identifier could never pass).
   */
  handleUpdateProposal(ctx: Context, proposal: UpdateHrpIbcChannelProposal): void {
    validateHrp(proposal.hrp);
    if (proposal.sourceChannel !== '' && this.channels.getChannel(ctx, TRANSFER_PORT, proposal.sourceChannel) === undefined) {
      throw Bech32IbcErrors.InvalidIbcData.wrap(`channel not found: ${proposal.sourceChannel}`);
    }
    this.setHrpIbcRecord(
      ctx,
      create(HrpIbcRecordSchema, {
        hrp: proposal.hrp,
        sourceChannel: proposal.sourceChannel,
        icsToHeightOffset: proposal.icsToHeightOffset,
        icsToTimeOffset: proposal.icsToTimeOffset,
      }),
    );
  }
}

/** The proposal's ValidateBasic beyond gov's title/description checks: an offset must be set, and the prefix valid. */
export function validateUpdateHrpIbcChannelProposal(proposal: UpdateHrpIbcChannelProposal): void {
  const time = proposal.icsToTimeOffset;
  if (proposal.icsToHeightOffset === 0n && (time === undefined || (time.seconds === 0n && time.nanos === 0))) throw Bech32IbcErrors.InvalidOffsetHeightTimeout.error();
  validateHrp(proposal.hrp);
}
