/**
 * cosmos.gov.v1 GenesisState (SDK 0.47; the deprecated deposit/voting/tally params are read as
 * fallbacks and never written): starting proposal id, proposals, deposits, votes, params.
 * InitGenesis re-queues open proposals by their end times and checks that the gov module
 * account holds exactly the deposits.
 */
import { create, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { ParamsSchema, ProposalStatus } from '../../../gen/cosmos/gov/v1/gov_pb.js';
import { GenesisStateSchema, type GenesisState } from '../../../gen/cosmos/gov/v1/genesis_pb.js';
import { fromGatewayJson, toGatewayJson } from '../../codec/index.js';
import { parseAccAddress } from '../shared/address.js';
import { addCoins, coinsEqual, coinsFromProto, coinsToString, type Coin } from '../shared/coins.js';
import type { Context } from '../shared/context.js';
import type { GenesisDefaults } from '../shared/module.js';
import type { GovBankKeeper } from './expectedKeepers.js';
import type { GovKeeper } from './keeper.js';
import { ActiveProposalQueue, Deposits, GOV_MODULE_ACCOUNT, InactiveProposalQueue, Proposals, Votes } from './keys.js';
import { defaultGovParams, validateGovParams, type GovParams } from './params.js';

export function defaultGovGenesis(defaults: GenesisDefaults): JsonObject {
  return toGatewayJson(GenesisStateSchema, create(GenesisStateSchema, { startingProposalId: 1n, params: defaultGovParams(defaults.denom) })) as JsonObject;
}

function parse(json: JsonValue | undefined): GenesisState {
  return fromGatewayJson(GenesisStateSchema, json ?? {});
}

/** The params of a genesis: `params`, or (older files) the three deprecated parts over the defaults. */
function paramsOf(state: GenesisState): GovParams | undefined {
  if (state.params !== undefined) return state.params;
  if (state.depositParams === undefined && state.votingParams === undefined && state.tallyParams === undefined) return undefined;
  const params = create(ParamsSchema, defaultGovParams(state.depositParams?.minDeposit[0]?.denom ?? 'stake'));
  if (state.depositParams !== undefined) {
    params.minDeposit = state.depositParams.minDeposit;
    params.maxDepositPeriod = state.depositParams.maxDepositPeriod;
  }
  if (state.votingParams !== undefined) params.votingPeriod = state.votingParams.votingPeriod;
  if (state.tallyParams !== undefined) {
    params.quorum = state.tallyParams.quorum;
    params.threshold = state.tallyParams.threshold;
    params.vetoThreshold = state.tallyParams.vetoThreshold;
  }
  return params;
}

export function validateGovGenesis(json: JsonValue | undefined): string[] {
  let state: GenesisState;
  try {
    state = parse(json);
  } catch (err) {
    return [`invalid gov genesis: ${(err as Error).message}`];
  }
  const problems: string[] = [];
  if (state.startingProposalId === 0n) problems.push('starting proposal id must be greater than 0');
  const params = paramsOf(state);
  if (params === undefined) problems.push('params are missing');
  else problems.push(...validateGovParams(params).map((problem) => `params: ${problem}`));
  const ids = new Set<bigint>();
  for (const proposal of state.proposals) {
    if (ids.has(proposal.id)) problems.push(`duplicate proposal id: ${proposal.id}`);
    ids.add(proposal.id);
    if (proposal.id >= state.startingProposalId) problems.push(`proposal id ${proposal.id} is not below starting_proposal_id ${state.startingProposalId}`);
  }
  const seen = new Set<string>();
  for (const [what, list] of [['deposit', state.deposits.map((d) => [d.proposalId, d.depositor] as const)], ['vote', state.votes.map((v) => [v.proposalId, v.voter] as const)]] as const) {
    for (const [id, who] of list) {
      if (!ids.has(id)) problems.push(`${what} of ${who} has non-existent proposal id: ${id}`);
      if (!parseAccAddress(who).ok) problems.push(`${what} on proposal ${id} has an invalid address: ${who}`);
      const key = `${what}/${id}/${who}`;
      if (seen.has(key)) problems.push(`duplicate ${what} of ${who} on proposal ${id}`);
      seen.add(key);
    }
  }
  return problems;
}

export async function initGovGenesis(ctx: Context, keeper: GovKeeper, bank: Pick<GovBankKeeper, never> & { getAllBalances(ctx: Context, address: Uint8Array): Promise<Coin[]> }, moduleAddress: Uint8Array, json: JsonValue | undefined): Promise<void> {
  const state = parse(json);
  const params = paramsOf(state);
  if (params === undefined) throw new Error('gov params are missing');
  keeper.setProposalID(ctx, state.startingProposalId);
  keeper.setParams(ctx, params);
  keeper.ensureModuleAccount(ctx);
  let total: Coin[] = [];
  for (const deposit of state.deposits) {
    keeper.setDeposit(ctx, deposit);
    total = addCoins(total, coinsFromProto(deposit.amount));
  }
  for (const vote of state.votes) {
    const voter = parseAccAddress(vote.voter);
    if (!voter.ok) throw new Error(`invalid voter ${vote.voter}`);
    Votes.set(ctx, [vote.proposalId, voter.bytes], vote);
  }
  for (const proposal of state.proposals) {
    if (proposal.status === ProposalStatus.DEPOSIT_PERIOD && proposal.depositEndTime !== undefined) {
      InactiveProposalQueue.set(ctx, [timestampDate(proposal.depositEndTime).getTime(), proposal.id], proposal.id);
    }
    if (proposal.status === ProposalStatus.VOTING_PERIOD && proposal.votingEndTime !== undefined) {
      ActiveProposalQueue.set(ctx, [timestampDate(proposal.votingEndTime).getTime(), proposal.id], proposal.id);
    }
    keeper.setProposal(ctx, proposal);
  }
  const balance = await bank.getAllBalances(ctx, moduleAddress);
  if (!coinsEqual(balance, total)) {
    throw new Error(`gov module account ${GOV_MODULE_ACCOUNT} holds ${coinsToString(balance) || 'nothing'} but the genesis deposits total ${coinsToString(total) || 'nothing'}`);
  }
}

export async function exportGovGenesis(ctx: Context, keeper: GovKeeper): Promise<JsonObject> {
  const state = create(GenesisStateSchema, { startingProposalId: keeper.getProposalID(ctx), params: keeper.getParams(ctx) });
  for await (const proposal of Proposals.values(ctx)) state.proposals.push(proposal);
  for await (const deposit of Deposits.values(ctx)) state.deposits.push(deposit);
  for await (const vote of Votes.values(ctx)) state.votes.push(vote);
  return toGatewayJson(GenesisStateSchema, state) as JsonObject;
}
