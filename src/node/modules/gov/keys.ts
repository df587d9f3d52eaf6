/**
 * The gov module's store ("gov") and its collections (x/gov SDK 0.47 key layout):
 *
 *   0x00 ‖ proposal id (u64 BE)                  Proposals             → cosmos.gov.v1.Proposal
 *   0x01 ‖ voting end time ‖ proposal id         ActiveProposalQueue   → proposal id (u64 BE)
 *   0x02 ‖ deposit end time ‖ proposal id        InactiveProposalQueue → proposal id (u64 BE)
 *   0x03                                         ProposalID            → next proposal id (u64 BE)
 *   0x10 ‖ proposal id ‖ len ‖ depositor         Deposits              → cosmos.gov.v1.Deposit
 *   0x20 ‖ proposal id ‖ len ‖ voter             Votes                 → cosmos.gov.v1.Vote
 *   0x30                                         Params                → cosmos.gov.v1.Params
 *
 * (time = sdk.FormatTimeBytes, so the queues iterate in end-time order.) Both cosmos.gov.v1beta1
 * and cosmos.gov.v1 read and write this one state.
 */
import { DepositSchema, ParamsSchema, ProposalSchema, VoteSchema } from '../../../gen/cosmos/gov/v1/gov_pb.js';
import { Item, SchemaBuilder, StateMap, lengthPrefixedBytesKey, pairKey, protoValue, timeKey, u64Key, u64Value } from '../../collections/index.js';
import { StoreKey } from '../../store/storeKey.js';

export const MODULE_NAME = 'gov';
export const GOV_MODULE_ACCOUNT = 'gov';

export const govStoreKey = StoreKey.persistent('gov');

const schema = new SchemaBuilder(govStoreKey);

export const Proposals = new StateMap(schema, 'proposals', 0x00, u64Key, protoValue(ProposalSchema));
/** (voting end time, id) of proposals in their voting period. */
export const ActiveProposalQueue = new StateMap(schema, 'active_proposals_queue', 0x01, pairKey(timeKey, u64Key), u64Value);
/** (deposit end time, id) of proposals in their deposit period. */
export const InactiveProposalQueue = new StateMap(schema, 'inactive_proposals_queue', 0x02, pairKey(timeKey, u64Key), u64Value);
export const ProposalID = new Item(schema, 'proposal_id', 0x03, u64Value);
export const Deposits = new StateMap(schema, 'deposits', 0x10, pairKey(u64Key, lengthPrefixedBytesKey), protoValue(DepositSchema));
export const Votes = new StateMap(schema, 'votes', 0x20, pairKey(u64Key, lengthPrefixedBytesKey), protoValue(VoteSchema));
export const Params = new Item(schema, 'params', 0x30, protoValue(ParamsSchema));

export const govSchema = schema.build();
