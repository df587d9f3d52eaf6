/**
 * The group module's store ("group") and its collections, at the x/group table prefixes
 * (keeper/keeper.go):
 *
 *   0x00 ‖ id (u64 BE)                         Groups                → GroupInfo
 *   0x01                                       GroupSeq              → u64 (the last group id)
 *   0x02 ‖ len ‖ admin ‖ id                    its by-admin index    → (empty)
 *   0x10 ‖ id ‖ len ‖ member                   GroupMembers          → GroupMember (by group: the key prefix)
 *   0x12 ‖ len ‖ member ‖ id                   its by-member index   → (empty)
 *   0x20 ‖ address                             GroupPolicies         → GroupPolicyInfo
 *   0x21                                       GroupPolicySeq        → u64 (derives policy addresses)
 *   0x22 ‖ group id ‖ address                  its by-group index    → (empty)
 *   0x23 ‖ len ‖ admin ‖ address               its by-admin index    → (empty)
 *   0x30 ‖ id                                  Proposals             → Proposal
 *   0x31                                       ProposalSeq           → u64 (the last proposal id)
 *   0x32 ‖ len ‖ policy ‖ id                   its by-policy index   → (empty)
 *   0x33 ‖ voting period end ‖ id              its by-voting-end index (EndBlock's scan)
 *   0x40 ‖ proposal id ‖ len ‖ voter           Votes                 → Vote (by proposal: the key prefix)
 *   0x42 ‖ len ‖ voter ‖ proposal id           its by-voter index    → (empty)
 *
 * The SDK's ORM keeps separate by-group (0x11) and by-proposal (0x41) indexes; here the primary
 * keys start with the group / proposal id, so those lookups are prefix ranges of the tables.
 */
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { GroupInfoSchema, GroupMemberSchema, GroupPolicyInfoSchema, ProposalSchema, VoteSchema, type GroupInfo, type GroupPolicyInfo, type Proposal } from '../../../gen/cosmos/group/v1/types_pb.js';
import { IndexedMap, MultiIndex, ReversePairIndex, SchemaBuilder, Sequence, bytesKey, lengthPrefixedBytesKey, pairKey, protoValue, timeKey, u64Key } from '../../collections/index.js';
import { StoreKey } from '../../store/storeKey.js';
import { parseAccAddress } from '../shared/address.js';

export const MODULE_NAME = 'group';
export const groupStoreKey = StoreKey.persistent(MODULE_NAME);

/** GroupPolicyTablePrefix: the first derivation key of policy addresses. */
export const GROUP_POLICY_TABLE_PREFIX = 0x20;

function addressBytes(text: string): Uint8Array {
  const parsed = parseAccAddress(text);
  // Stored records were validated on the way in; an unparsable address is not indexed.
  return parsed.ok ? parsed.bytes : new Uint8Array(0);
}

const schema = new SchemaBuilder(groupStoreKey);

export const GroupSeq = new Sequence(schema, 'group_seq', 0x01);
export const GroupsByAdmin = new MultiIndex<Uint8Array, bigint, GroupInfo>(schema, 'groups_by_admin', 0x02, lengthPrefixedBytesKey, u64Key, (_id, group) => addressBytes(group.admin));
export const Groups = new IndexedMap(schema, 'groups', 0x00, u64Key, protoValue(GroupInfoSchema), { byAdmin: GroupsByAdmin });

export const GroupMembersByMember = new ReversePairIndex(schema, 'group_members_by_member', 0x12, pairKey(lengthPrefixedBytesKey, u64Key));
/** (group id, member address) → GroupMember. */
export const GroupMembers = new IndexedMap(schema, 'group_members', 0x10, pairKey(u64Key, lengthPrefixedBytesKey), protoValue(GroupMemberSchema), { byMember: GroupMembersByMember });

export const GroupPolicySeq = new Sequence(schema, 'group_policy_seq', 0x21);
export const GroupPoliciesByGroup = new MultiIndex<bigint, Uint8Array, GroupPolicyInfo>(schema, 'group_policies_by_group', 0x22, u64Key, bytesKey, (_address, policy) => policy.groupId);
export const GroupPoliciesByAdmin = new MultiIndex<Uint8Array, Uint8Array, GroupPolicyInfo>(schema, 'group_policies_by_admin', 0x23, lengthPrefixedBytesKey, bytesKey, (_address, policy) => addressBytes(policy.admin));
/** policy account address → GroupPolicyInfo. */
export const GroupPolicies = new IndexedMap(schema, 'group_policies', 0x20, bytesKey, protoValue(GroupPolicyInfoSchema), { byGroup: GroupPoliciesByGroup, byAdmin: GroupPoliciesByAdmin });

export const ProposalSeq = new Sequence(schema, 'proposal_seq', 0x31);
export const ProposalsByPolicy = new MultiIndex<Uint8Array, bigint, Proposal>(schema, 'proposals_by_group_policy', 0x32, lengthPrefixedBytesKey, u64Key, (_id, proposal) => addressBytes(proposal.groupPolicyAddress));
export const ProposalsByVotingPeriodEnd = new MultiIndex<number, bigint, Proposal>(schema, 'proposals_by_voting_period_end', 0x33, timeKey, u64Key, (_id, proposal) =>
  proposal.votingPeriodEnd === undefined ? 0 : timestampDate(proposal.votingPeriodEnd).getTime(),
);
export const Proposals = new IndexedMap(schema, 'proposals', 0x30, u64Key, protoValue(ProposalSchema), { byPolicy: ProposalsByPolicy, byVotingPeriodEnd: ProposalsByVotingPeriodEnd });

export const VotesByVoter = new ReversePairIndex(schema, 'votes_by_voter', 0x42, pairKey(lengthPrefixedBytesKey, u64Key));
/** (proposal id, voter address) → Vote. */
export const Votes = new IndexedMap(schema, 'votes', 0x40, pairKey(u64Key, lengthPrefixedBytesKey), protoValue(VoteSchema), { byVoter: VotesByVoter });

export const groupSchema = schema.build();
