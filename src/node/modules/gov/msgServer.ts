/**
 * cosmos.gov.v1.Msg and cosmos.gov.v1beta1.Msg (x/gov keeper/msg_server.go, SDK 0.47) over one
 * state: a v1beta1 content proposal becomes a v1 proposal with one MsgExecLegacyContent, as the
 * SDK's legacy msg server does.
 */
import { create, type Message } from '@bufbuild/protobuf';
import type { Any } from '@bufbuild/protobuf/wkt';
import { anyPack } from '../../codec/any.js';
import { WeightedVoteOptionSchema, type WeightedVoteOption } from '../../../gen/cosmos/gov/v1/gov_pb.js';
import {
  Msg,
  MsgDepositResponseSchema,
  MsgExecLegacyContentResponseSchema,
  MsgExecLegacyContentSchema,
  MsgSubmitProposalResponseSchema,
  MsgUpdateParamsResponseSchema,
  MsgVoteResponseSchema,
  MsgVoteWeightedResponseSchema,
} from '../../../gen/cosmos/gov/v1/tx_pb.js';
import {
  Msg as MsgV1beta1,
  MsgDepositResponseSchema as MsgDepositResponseSchemaV1beta1,
  MsgSubmitProposalResponseSchema as MsgSubmitProposalResponseSchemaV1beta1,
  MsgVoteResponseSchema as MsgVoteResponseSchemaV1beta1,
  MsgVoteWeightedResponseSchema as MsgVoteWeightedResponseSchemaV1beta1,
} from '../../../gen/cosmos/gov/v1beta1/tx_pb.js';
import { legacyDecFromWire } from '../../codec/decimal.js';
import { checkAuthority } from '../../platform/authority.js';
import { accString, parseAccAddress } from '../shared/address.js';
import { coinsFromProto, coinsToString, isValidCoins, type Coin } from '../shared/coins.js';
import type { Context } from '../shared/context.js';
import { decMulInt, decTruncate } from '../shared/dec.js';
import { isSdkError, SdkErrors } from '../shared/errors.js';
import { newEvent } from '../shared/events.js';
import { msgRoute, type MsgRoute } from '../shared/module.js';
import { GovErrors } from './errors.js';
import { checkWeightedOptions, isAllGTE, voteOptionName, type GovKeeper } from './keeper.js';
import { decParam, validateGovParams } from './params.js';

function address(text: string, what: string): Uint8Array {
  const parsed = parseAccAddress(text);
  if (!parsed.ok) throw SdkErrors.InvalidAddress.wrap(`invalid ${what} address: ${parsed.error}`);
  return parsed.bytes;
}

function validCoins(coins: Coin[]): Coin[] {
  if (coins.length > 0 && !isValidCoins(coins)) throw SdkErrors.InvalidCoins.wrap(coinsToString(coins));
  return coins;
}

const MAX_TITLE_LENGTH = 140;
const MAX_DESCRIPTION_LENGTH = 10_000;

/** v1beta1 ValidateAbstract of a content's title and description. */
export function checkContentText(title: string, description: string): void {
  if (title.trim() === '') throw GovErrors.InvalidProposalContent.wrap('proposal title cannot be blank');
  if (title.length > MAX_TITLE_LENGTH) throw GovErrors.InvalidProposalContent.wrap(`proposal title is longer than max length of ${MAX_TITLE_LENGTH}`);
  if (description.length === 0) throw GovErrors.InvalidProposalContent.wrap('proposal description cannot be blank');
  if (description.length > MAX_DESCRIPTION_LENGTH) throw GovErrors.InvalidProposalContent.wrap(`proposal description is longer than max length of ${MAX_DESCRIPTION_LENGTH}`);
}

function vote(keeper: GovKeeper, ctx: Context, proposalId: bigint, voterText: string, options: WeightedVoteOption[], metadata: string): void {
  const voter = address(voterText, 'voter');
  const checked = checkWeightedOptions(options);
  keeper.addVote(ctx, proposalId, voter, checked, metadata);
}

function singleOption(option: number): WeightedVoteOption[] {
  if (option < 1 || option > 4) throw GovErrors.InvalidVote.wrap(voteOptionName(option));
  return [create(WeightedVoteOptionSchema, { option, weight: '1.000000000000000000' })];
}

function deposit(keeper: GovKeeper, ctx: Context, proposalId: bigint, depositorText: string, amountProto: readonly { denom: string; amount: string }[]): void {
  const depositor = address(depositorText, 'depositor');
  const amount = validCoins(coinsFromProto(amountProto));
  if (keeper.addDeposit(ctx, proposalId, depositor, amount)) {
    ctx.events.emit(newEvent('proposal_deposit', ['voting_period_start', proposalId.toString()]));
  }
}

async function submit(
  keeper: GovKeeper,
  ctx: Context,
  messages: Any[],
  initialDeposit: readonly { denom: string; amount: string }[],
  proposerText: string,
  metadata: string,
  title: string,
  summary: string,
): Promise<bigint> {
  const proposer = address(proposerText, 'proposer');
  const deposit = validCoins(coinsFromProto(initialDeposit));
  if (messages.length === 0 && metadata === '') throw GovErrors.NoProposalMsgs.wrap('either metadata or Msgs length must be non-nil');
  // validateInitialDeposit: the deposit paid at submission covers min_initial_deposit_ratio of min_deposit.
  const params = keeper.getParams(ctx);
  const ratio = decParam(params.minInitialDepositRatio);
  if (ratio > 0n) {
    const required = coinsFromProto(params.minDeposit)
      .map((coin) => ({ denom: coin.denom, amount: decTruncate(decMulInt(ratio, coin.amount)) }))
      .filter((coin) => coin.amount > 0n);
    if (!isAllGTE(deposit, required)) throw GovErrors.MinDepositTooSmall.wrap(`was (${coinsToString(deposit)}), need (${coinsToString(required)})`);
  }
  const proposal = await keeper.submitProposal(ctx, messages, metadata, title, summary, proposer);
  if (keeper.addDeposit(ctx, proposal.id, proposer, deposit)) {
    ctx.events.emit(newEvent('submit_proposal', ['voting_period_start', proposal.id.toString()]));
  }
  return proposal.id;
}

/** Title and description of a decoded content (every content type has them as fields 1 and 2). */
function contentText(message: Message): { title: string; description: string } {
  const fields = message as unknown as { title?: unknown; description?: unknown };
  return { title: typeof fields.title === 'string' ? fields.title : '', description: typeof fields.description === 'string' ? fields.description : '' };
}

export function govMsgRoutes(keeper: GovKeeper, authority: Uint8Array): MsgRoute[] {
  return [
    msgRoute(Msg.method.submitProposal, async (ctx: Context, msg) => {
      const id = await submit(keeper, ctx, msg.messages, msg.initialDeposit, msg.proposer, msg.metadata, msg.title, msg.summary);
      return create(MsgSubmitProposalResponseSchema, { proposalId: id });
    }),

    msgRoute(Msg.method.execLegacyContent, async (ctx: Context, msg) => {
      const signer = parseAccAddress(msg.authority);
      if (!signer.ok || accString(signer.bytes) !== accString(authority)) throw GovErrors.InvalidSigner.wrap(`expected ${accString(authority)} got ${msg.authority}`);
      if (msg.content === undefined) throw GovErrors.InvalidProposalContent.wrap('missing content');
      if (!keeper.contentRouter.has(msg.content.typeUrl)) throw GovErrors.NoProposalHandlerExists.wrap(msg.content.typeUrl);
      const { message } = keeper.contentRouter.decode(msg.content);
      const text = contentText(message);
      checkContentText(text.title, text.description);
      try {
        await keeper.contentRouter.execute(ctx, msg.content);
      } catch (err) {
        throw GovErrors.InvalidProposalContent.wrap(`failed to run legacy handler ${msg.content.typeUrl}, ${isSdkError(err) ? err.message : err instanceof Error ? err.message : String(err)}`);
      }
      return create(MsgExecLegacyContentResponseSchema);
    }),

    msgRoute(Msg.method.vote, (ctx: Context, msg) => {
      vote(keeper, ctx, msg.proposalId, msg.voter, singleOption(msg.option), msg.metadata);
      return create(MsgVoteResponseSchema);
    }),

    msgRoute(Msg.method.voteWeighted, (ctx: Context, msg) => {
      vote(keeper, ctx, msg.proposalId, msg.voter, msg.options, msg.metadata);
      return create(MsgVoteWeightedResponseSchema);
    }),

    msgRoute(Msg.method.deposit, (ctx: Context, msg) => {
      deposit(keeper, ctx, msg.proposalId, msg.depositor, msg.amount);
      return create(MsgDepositResponseSchema);
    }),

    msgRoute(Msg.method.updateParams, (ctx: Context, msg) => {
      checkAuthority(authority, msg.authority);
      if (msg.params === undefined) throw SdkErrors.InvalidRequest.wrap('params cannot be empty');
      const problems = validateGovParams(msg.params);
      if (problems.length > 0) throw SdkErrors.InvalidRequest.wrap(problems.join('; '));
      keeper.setParams(ctx, msg.params);
      return create(MsgUpdateParamsResponseSchema);
    }),

    // ------------------------------------------------------------------ v1beta1

    msgRoute(MsgV1beta1.method.submitProposal, async (ctx: Context, msg) => {
      if (msg.content === undefined) throw GovErrors.InvalidProposalContent.wrap('missing content');
      if (!keeper.contentRouter.has(msg.content.typeUrl)) throw GovErrors.InvalidProposalType.wrap(msg.content.typeUrl);
      // The content's own ValidateBasic (a software upgrade's plan …) before anything is stored.
      const message = keeper.contentRouter.validate(msg.content);
      const text = contentText(message);
      checkContentText(text.title, text.description);
      const exec = anyPack(MsgExecLegacyContentSchema, create(MsgExecLegacyContentSchema, { content: msg.content, authority: accString(authority) }));
      const id = await submit(keeper, ctx, [exec], msg.initialDeposit, msg.proposer, '', text.title, text.description);
      return create(MsgSubmitProposalResponseSchemaV1beta1, { proposalId: id });
    }),

    msgRoute(MsgV1beta1.method.vote, (ctx: Context, msg) => {
      vote(keeper, ctx, msg.proposalId, msg.voter, singleOption(msg.option), '');
      return create(MsgVoteResponseSchemaV1beta1);
    }),

    msgRoute(MsgV1beta1.method.voteWeighted, (ctx: Context, msg) => {
      const options = msg.options.map((option) => {
        let weight: string;
        try {
          weight = legacyDecFromWire(option.weight);
        } catch {
          throw GovErrors.InvalidVote.wrap(`option:${voteOptionName(option.option)} weight:"${option.weight}"`);
        }
        return create(WeightedVoteOptionSchema, { option: option.option, weight });
      });
      vote(keeper, ctx, msg.proposalId, msg.voter, options, '');
      return create(MsgVoteWeightedResponseSchemaV1beta1);
    }),

    msgRoute(MsgV1beta1.method.deposit, (ctx: Context, msg) => {
      deposit(keeper, ctx, msg.proposalId, msg.depositor, msg.amount);
      return create(MsgDepositResponseSchemaV1beta1);
    }),
  ];
}
