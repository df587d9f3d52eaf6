/** cosmos.group.v1.Msg: every message maps onto one keeper operation. */
import { create } from '@bufbuild/protobuf';
import {
  Msg,
  MsgCreateGroupPolicyResponseSchema,
  MsgCreateGroupResponseSchema,
  MsgCreateGroupWithPolicyResponseSchema,
  MsgExecResponseSchema,
  MsgLeaveGroupResponseSchema,
  MsgSubmitProposalResponseSchema,
  MsgUpdateGroupAdminResponseSchema,
  MsgUpdateGroupMembersResponseSchema,
  MsgUpdateGroupMetadataResponseSchema,
  MsgUpdateGroupPolicyAdminResponseSchema,
  MsgUpdateGroupPolicyDecisionPolicyResponseSchema,
  MsgUpdateGroupPolicyMetadataResponseSchema,
  MsgVoteResponseSchema,
  MsgWithdrawProposalResponseSchema,
} from '../../../gen/cosmos/group/v1/tx_pb.js';
import { wrapError } from '../shared/errors.js';
import { msgRoute, type MsgRoute } from '../shared/module.js';
import type { GroupKeeper } from './keeper.js';

export function groupMsgRoutes(keeper: GroupKeeper): MsgRoute[] {
  return [
    msgRoute(Msg.method.createGroup, async (ctx, msg) => create(MsgCreateGroupResponseSchema, { groupId: await keeper.createGroup(ctx, msg.admin, msg.members, msg.metadata) })),
    msgRoute(Msg.method.updateGroupMembers, async (ctx, msg) => {
      await keeper.updateGroupMembers(ctx, msg.admin, msg.groupId, msg.memberUpdates);
      return create(MsgUpdateGroupMembersResponseSchema);
    }),
    msgRoute(Msg.method.updateGroupAdmin, async (ctx, msg) => {
      await keeper.updateGroupAdmin(ctx, msg.admin, msg.groupId, msg.newAdmin);
      return create(MsgUpdateGroupAdminResponseSchema);
    }),
    msgRoute(Msg.method.updateGroupMetadata, async (ctx, msg) => {
      await keeper.updateGroupMetadata(ctx, msg.admin, msg.groupId, msg.metadata);
      return create(MsgUpdateGroupMetadataResponseSchema);
    }),
    msgRoute(Msg.method.createGroupPolicy, async (ctx, msg) => create(MsgCreateGroupPolicyResponseSchema, { address: await keeper.createGroupPolicy(ctx, msg.admin, msg.groupId, msg.metadata, msg.decisionPolicy) })),
    msgRoute(Msg.method.createGroupWithPolicy, async (ctx, msg) => {
      let groupId: bigint;
      try {
        groupId = await keeper.createGroup(ctx, msg.admin, msg.members, msg.groupMetadata);
      } catch (err) {
        throw wrapError(err, 'group response');
      }
      let address: string;
      try {
        address = await keeper.createGroupPolicy(ctx, msg.admin, groupId, msg.groupPolicyMetadata, msg.decisionPolicy);
      } catch (err) {
        throw wrapError(err, 'group policy response');
      }
      if (msg.groupPolicyAsAdmin) {
        await keeper.updateGroupAdmin(ctx, msg.admin, groupId, address);
        await keeper.updateGroupPolicyAdmin(ctx, msg.admin, address, address);
      }
      return create(MsgCreateGroupWithPolicyResponseSchema, { groupId, groupPolicyAddress: address });
    }),
    msgRoute(Msg.method.updateGroupPolicyAdmin, async (ctx, msg) => {
      await keeper.updateGroupPolicyAdmin(ctx, msg.admin, msg.groupPolicyAddress, msg.newAdmin);
      return create(MsgUpdateGroupPolicyAdminResponseSchema);
    }),
    msgRoute(Msg.method.updateGroupPolicyDecisionPolicy, async (ctx, msg) => {
      await keeper.updateGroupPolicyDecisionPolicy(ctx, msg.admin, msg.groupPolicyAddress, msg.decisionPolicy);
      return create(MsgUpdateGroupPolicyDecisionPolicyResponseSchema);
    }),
    msgRoute(Msg.method.updateGroupPolicyMetadata, async (ctx, msg) => {
      await keeper.updateGroupPolicyMetadata(ctx, msg.admin, msg.groupPolicyAddress, msg.metadata);
      return create(MsgUpdateGroupPolicyMetadataResponseSchema);
    }),
    msgRoute(Msg.method.submitProposal, async (ctx, msg) => create(MsgSubmitProposalResponseSchema, { proposalId: await keeper.submitProposal(ctx, msg) })),
    msgRoute(Msg.method.withdrawProposal, async (ctx, msg) => {
      await keeper.withdrawProposal(ctx, msg.proposalId, msg.address);
      return create(MsgWithdrawProposalResponseSchema);
    }),
    msgRoute(Msg.method.vote, async (ctx, msg) => {
      await keeper.vote(ctx, msg.proposalId, msg.voter, msg.option, msg.metadata, msg.exec);
      return create(MsgVoteResponseSchema);
    }),
    msgRoute(Msg.method.exec, async (ctx, msg) => create(MsgExecResponseSchema, { result: await keeper.exec(ctx, msg.proposalId, msg.executor) })),
    msgRoute(Msg.method.leaveGroup, async (ctx, msg) => {
      await keeper.leaveGroup(ctx, msg.address, msg.groupId);
      return create(MsgLeaveGroupResponseSchema);
    }),
  ];
}
