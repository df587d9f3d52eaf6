/** What the client submodule needs of other modules (ibc-go's expected keepers), by their narrow interfaces. */
import type { HistoricalInfo } from '../../../../../gen/cosmos/staking/v1beta1/staking_pb.js';
import type { Plan } from '../../../../../gen/cosmos/upgrade/v1beta1/upgrade_pb.js';
import type { Duration } from '@bufbuild/protobuf/wkt';
import type { Context } from '../../../shared/context.js';

/** x/staking: the headers of past heights (GetSelfConsensusState). */
export interface IbcStakingKeeper {
  getHistoricalInfo(ctx: Context, height: bigint): HistoricalInfo | undefined;
  /** The unbonding time a client of this chain must carry (ValidateSelfClient). */
  getParams(ctx: Context): { unbondingTime?: Duration | undefined };
}

/** x/upgrade: the client / consensus state this chain commits to for its next upgrade. */
export interface IbcUpgradeKeeper {
  getUpgradePlan(ctx: Context): { height: bigint } | undefined;
  /** Validates and schedules the plan (replacing any scheduled one and its IBC state). */
  scheduleUpgrade(ctx: Context, plan: Plan): Promise<void>;
  getUpgradedClient(ctx: Context, height: bigint): Uint8Array | undefined;
  getUpgradedConsensusState(ctx: Context, lastHeight: bigint): Uint8Array | undefined;
  setUpgradedClient(ctx: Context, planHeight: bigint, bytes: Uint8Array): void;
  setUpgradedConsensusState(ctx: Context, planHeight: bigint, bytes: Uint8Array): void;
}
