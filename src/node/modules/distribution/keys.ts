/**
 * The distribution module's store ("distribution") at the x/distribution prefixes
 * (types/keys.go):
 *
 *   0x00                                   FeePool                        → FeePool
 *   0x01                                   PreviousProposer               → consensus address
 *   0x02 ‖ len ‖ valAddr                   ValidatorOutstandingRewards    → ValidatorOutstandingRewards
 *   0x03 ‖ len ‖ delAddr                   DelegatorWithdrawAddr          → address
 *   0x04 ‖ len ‖ valAddr ‖ len ‖ delAddr   DelegatorStartingInfo          → DelegatorStartingInfo
 *   0x05 ‖ len ‖ valAddr ‖ period          ValidatorHistoricalRewards     → ValidatorHistoricalRewards
 *   0x06 ‖ len ‖ valAddr                   ValidatorCurrentRewards        → ValidatorCurrentRewards
 *   0x07 ‖ len ‖ valAddr                   ValidatorAccumulatedCommission → ValidatorAccumulatedCommission
 *   0x08 ‖ len ‖ valAddr ‖ height ‖ period ValidatorSlashEvents           → ValidatorSlashEvent
 *   0x09                                   Params                         → Params
 *
 * (Periods and heights are u64 big-endian here; the SDK writes the historical-rewards period
 * little-endian — only this node reads these keys, and big-endian keeps them in order.)
 */

import {
  DelegatorStartingInfoSchema,
  FeePoolSchema,
  ParamsSchema,
  ValidatorAccumulatedCommissionSchema,
  ValidatorCurrentRewardsSchema,
  ValidatorHistoricalRewardsSchema,
  ValidatorOutstandingRewardsSchema,
  ValidatorSlashEventSchema,
} from '../../../gen/cosmos/distribution/v1beta1/distribution_pb.js';
import { Item, SchemaBuilder, StateMap, bytesValue, lengthPrefixedBytesKey, pairKey, protoValue, tripleKey, u64Key } from '../../collections/index.js';
import { StoreKey } from '../../store/storeKey.js';

export const MODULE_NAME = 'distribution';
export const distributionStoreKey = StoreKey.persistent(MODULE_NAME);

const schema = new SchemaBuilder(distributionStoreKey);
const lp = lengthPrefixedBytesKey;

export const FeePool = new Item(schema, 'fee_pool', 0x00, protoValue(FeePoolSchema));
export const PreviousProposer = new Item(schema, 'previous_proposer', 0x01, bytesValue);
export const OutstandingRewards = new StateMap(schema, 'validator_outstanding_rewards', 0x02, lp, protoValue(ValidatorOutstandingRewardsSchema));
export const WithdrawAddresses = new StateMap(schema, 'delegator_withdraw_addr', 0x03, lp, bytesValue);
export const StartingInfos = new StateMap(schema, 'delegator_starting_info', 0x04, pairKey(lp, lp), protoValue(DelegatorStartingInfoSchema));
export const HistoricalRewards = new StateMap(schema, 'validator_historical_rewards', 0x05, pairKey(lp, u64Key), protoValue(ValidatorHistoricalRewardsSchema));
export const CurrentRewards = new StateMap(schema, 'validator_current_rewards', 0x06, lp, protoValue(ValidatorCurrentRewardsSchema));
export const AccumulatedCommission = new StateMap(schema, 'validator_accumulated_commission', 0x07, lp, protoValue(ValidatorAccumulatedCommissionSchema));
export const SlashEvents = new StateMap(schema, 'validator_slash_events', 0x08, tripleKey(lp, u64Key, u64Key), protoValue(ValidatorSlashEventSchema));
export const Params = new Item(schema, 'params', 0x09, protoValue(ParamsSchema));

export const distributionSchema = schema.build();

