/**
 * The REST route table derived from google.api.http options must answer every path the spec
 * lists for the Accounts, Bank, Node and blocks, Transactions and Staking groups (on /sdk/),
 * and the upstream /cosmos/ path of the same method.
 */
import { QueryAllBalancesRequestSchema } from '../../../src/gen/cosmos/bank/v1beta1/query_pb.js';
import { httpRoutes, pathTemplateFields } from '../../../src/node/codec/index.js';
import type { HttpRoute } from '../../../src/node/codec/index.js';

type SpecRow = [method: 'GET' | 'POST', path: string, rpc: string];

const ACCOUNTS = 'cosmos.auth.v1beta1.Query';
const BANK = 'cosmos.bank.v1beta1.Query';
const NODE = 'cosmos.base.node.v1beta1.Service';
const BLOCKS = 'cosmos.base.tendermint.v1beta1.Service';
const STAKING = 'cosmos.staking.v1beta1.Query';
const TX = 'cosmos.tx.v1beta1.Service';
const MINT = 'aioz.mint.v1.Query';
const UPGRADE = 'cosmos.upgrade.v1beta1.Query';
const BONUS = 'aioz.bonus.v1.Query';
const DISTRIBUTION = 'cosmos.distribution.v1beta1.Query';
const SLASHING = 'cosmos.slashing.v1beta1.Query';
const EVIDENCE = 'cosmos.evidence.v1beta1.Query';
const GROUP = 'cosmos.group.v1.Query';
const NET_STAKING = 'aioz.staking.v1beta1.Query';
const EVM = 'ethermint.evm.v1.Query';
const FEEMARKET = 'ethermint.feemarket.v1.Query';
const AUTHZ = 'cosmos.authz.v1beta1.Query';
const FEEGRANT = 'cosmos.feegrant.v1beta1.Query';
const GOV = 'cosmos.gov.v1.Query';
const GOV_V1BETA1 = 'cosmos.gov.v1beta1.Query';
const PARAMS = 'cosmos.params.v1beta1.Query';
const IBC_CLIENT = 'ibc.core.client.v1.Query';
const AIOZRC20 = 'aioz.aiozrc20.v1.Query';
const IBC_CONNECTION = 'ibc.core.connection.v1.Query';
const IBC_CHANNEL = 'ibc.core.channel.v1.Query';
const IBC_TRANSFER = 'ibc.applications.transfer.v1.Query';
const ICA_CONTROLLER = 'ibc.applications.interchain_accounts.controller.v1.Query';
const ICA_HOST = 'ibc.applications.interchain_accounts.host.v1.Query';
const ICAMAUTH = 'aioz.icamauth.v1beta1.Query';
const BECH32IBC = 'bech32ibc.bech32ibc.v1beta1.Query';
const IBC_FEE = 'ibc.applications.fee.v1.Query';

/** The spec alias of an upstream path: /cosmos/ → /sdk/, /aioz/ → /net/ (aiozrc20 → netrc20), /ethermint/ → /evmx/ (cosmos_account → sdk_account). */
function specAlias(pattern: string): string {
  if (pattern.startsWith('/ethermint/')) return pattern.replace(/^\/ethermint\//, '/evmx/').replace('/cosmos_account/', '/sdk_account/');
  if (pattern.startsWith('/aioz/aiozrc20/')) return pattern.replace(/^\/aioz\/aiozrc20\//, '/net/netrc20/');
  if (pattern.startsWith('/osmosis/txfees/')) return pattern.replace(/^\/osmosis\//, '/feex/');
  if (pattern.startsWith('/aioz/')) return pattern.replace(/^\/aioz\//, '/net/');
  return pattern.replace(/^\/cosmos\//, '/sdk/');
}

/** Copied from spec/SERVICE.md "Endpoints", with the group prefixes spelled out. */
const SPEC_PATHS: SpecRow[] = [
  // Accounts (/sdk/auth/v1beta1), all GET
  ['GET', '/sdk/auth/v1beta1/accounts', `${ACCOUNTS}/Accounts`],
  ['GET', '/sdk/auth/v1beta1/accounts/{address}', `${ACCOUNTS}/Account`],
  ['GET', '/sdk/auth/v1beta1/address_by_id/{id}', `${ACCOUNTS}/AccountAddressByID`],
  ['GET', '/sdk/auth/v1beta1/bech32', `${ACCOUNTS}/Bech32Prefix`],
  ['GET', '/sdk/auth/v1beta1/bech32/{address_bytes}', `${ACCOUNTS}/AddressBytesToString`],
  ['GET', '/sdk/auth/v1beta1/bech32/{address_string}', `${ACCOUNTS}/AddressStringToBytes`],
  ['GET', '/sdk/auth/v1beta1/module_accounts', `${ACCOUNTS}/ModuleAccounts`],
  ['GET', '/sdk/auth/v1beta1/module_accounts/{name}', `${ACCOUNTS}/ModuleAccountByName`],
  ['GET', '/sdk/auth/v1beta1/params', `${ACCOUNTS}/Params`],
  // Bank (/sdk/bank/v1beta1), all GET
  ['GET', '/sdk/bank/v1beta1/balances/{address}', `${BANK}/AllBalances`],
  ['GET', '/sdk/bank/v1beta1/balances/{address}/by_denom', `${BANK}/Balance`],
  ['GET', '/sdk/bank/v1beta1/denom_owners/{denom}', `${BANK}/DenomOwners`],
  ['GET', '/sdk/bank/v1beta1/denoms_metadata', `${BANK}/DenomsMetadata`],
  ['GET', '/sdk/bank/v1beta1/denoms_metadata/{denom}', `${BANK}/DenomMetadata`],
  ['GET', '/sdk/bank/v1beta1/params', `${BANK}/Params`],
  ['GET', '/sdk/bank/v1beta1/spendable_balances/{address}', `${BANK}/SpendableBalances`],
  ['GET', '/sdk/bank/v1beta1/supply', `${BANK}/TotalSupply`],
  ['GET', '/sdk/bank/v1beta1/supply/by_denom', `${BANK}/SupplyOf`],
  // Node and blocks, all GET
  ['GET', '/sdk/base/node/v1beta1/config', `${NODE}/Config`],
  ['GET', '/sdk/base/consensus/v1beta1/abci_query', `${BLOCKS}/ABCIQuery`],
  ['GET', '/sdk/base/consensus/v1beta1/blocks/latest', `${BLOCKS}/GetLatestBlock`],
  ['GET', '/sdk/base/consensus/v1beta1/blocks/{height}', `${BLOCKS}/GetBlockByHeight`],
  ['GET', '/sdk/base/consensus/v1beta1/node_info', `${BLOCKS}/GetNodeInfo`],
  ['GET', '/sdk/base/consensus/v1beta1/syncing', `${BLOCKS}/GetSyncing`],
  ['GET', '/sdk/base/consensus/v1beta1/validatorsets/latest', `${BLOCKS}/GetLatestValidatorSet`],
  ['GET', '/sdk/base/consensus/v1beta1/validatorsets/{height}', `${BLOCKS}/GetValidatorSetByHeight`],
  // Staking (/sdk/staking/v1beta1), all GET
  ['GET', '/sdk/staking/v1beta1/delegations/{delegator_addr}', `${STAKING}/DelegatorDelegations`],
  ['GET', '/sdk/staking/v1beta1/delegators/{delegator_addr}/redelegations', `${STAKING}/Redelegations`],
  [
    'GET',
    '/sdk/staking/v1beta1/delegators/{delegator_addr}/unbonding_delegations',
    `${STAKING}/DelegatorUnbondingDelegations`,
  ],
  ['GET', '/sdk/staking/v1beta1/delegators/{delegator_addr}/validators', `${STAKING}/DelegatorValidators`],
  [
    'GET',
    '/sdk/staking/v1beta1/delegators/{delegator_addr}/validators/{validator_addr}',
    `${STAKING}/DelegatorValidator`,
  ],
  ['GET', '/sdk/staking/v1beta1/historical_info/{height}', `${STAKING}/HistoricalInfo`],
  ['GET', '/sdk/staking/v1beta1/params', `${STAKING}/Params`],
  ['GET', '/sdk/staking/v1beta1/pool', `${STAKING}/Pool`],
  ['GET', '/sdk/staking/v1beta1/validators', `${STAKING}/Validators`],
  ['GET', '/sdk/staking/v1beta1/validators/{validator_addr}', `${STAKING}/Validator`],
  ['GET', '/sdk/staking/v1beta1/validators/{validator_addr}/delegations', `${STAKING}/ValidatorDelegations`],
  [
    'GET',
    '/sdk/staking/v1beta1/validators/{validator_addr}/delegations/{delegator_addr}',
    `${STAKING}/Delegation`,
  ],
  [
    'GET',
    '/sdk/staking/v1beta1/validators/{validator_addr}/delegations/{delegator_addr}/unbonding_delegation',
    `${STAKING}/UnbondingDelegation`,
  ],
  [
    'GET',
    '/sdk/staking/v1beta1/validators/{validator_addr}/unbonding_delegations',
    `${STAKING}/ValidatorUnbondingDelegations`,
  ],
  // Groups (/sdk/group/v1), all GET
  ['GET', '/sdk/group/v1/group_info/{group_id}', `${GROUP}/GroupInfo`],
  ['GET', '/sdk/group/v1/group_members/{group_id}', `${GROUP}/GroupMembers`],
  ['GET', '/sdk/group/v1/group_policies_by_admin/{admin}', `${GROUP}/GroupPoliciesByAdmin`],
  ['GET', '/sdk/group/v1/group_policies_by_group/{group_id}', `${GROUP}/GroupPoliciesByGroup`],
  ['GET', '/sdk/group/v1/group_policy_info/{address}', `${GROUP}/GroupPolicyInfo`],
  ['GET', '/sdk/group/v1/groups_by_admin/{admin}', `${GROUP}/GroupsByAdmin`],
  ['GET', '/sdk/group/v1/groups_by_member/{address}', `${GROUP}/GroupsByMember`],
  ['GET', '/sdk/group/v1/proposal/{proposal_id}', `${GROUP}/Proposal`],
  ['GET', '/sdk/group/v1/proposals/{proposal_id}/tally', `${GROUP}/TallyResult`],
  ['GET', '/sdk/group/v1/proposals_by_group_policy/{address}', `${GROUP}/ProposalsByGroupPolicy`],
  ['GET', '/sdk/group/v1/vote_by_proposal_voter/{proposal_id}/{voter}', `${GROUP}/VoteByProposalVoter`],
  ['GET', '/sdk/group/v1/votes_by_proposal/{proposal_id}', `${GROUP}/VotesByProposal`],
  ['GET', '/sdk/group/v1/votes_by_voter/{voter}', `${GROUP}/VotesByVoter`],
  // Transactions (/sdk/tx/v1beta1)
  ['POST', '/sdk/tx/v1beta1/simulate', `${TX}/Simulate`],
  ['GET', '/sdk/tx/v1beta1/txs', `${TX}/GetTxsEvent`],
  ['POST', '/sdk/tx/v1beta1/txs', `${TX}/BroadcastTx`],
  ['GET', '/sdk/tx/v1beta1/txs/block/{height}', `${TX}/GetBlockWithTxs`],
  ['GET', '/sdk/tx/v1beta1/txs/{hash}', `${TX}/GetTx`],
  // Upgrade (/sdk/upgrade/v1beta1), all GET
  ['GET', '/sdk/upgrade/v1beta1/applied_plan/{name}', `${UPGRADE}/AppliedPlan`],
  ['GET', '/sdk/upgrade/v1beta1/authority', `${UPGRADE}/Authority`],
  ['GET', '/sdk/upgrade/v1beta1/current_plan', `${UPGRADE}/CurrentPlan`],
  ['GET', '/sdk/upgrade/v1beta1/module_versions', `${UPGRADE}/ModuleVersions`],
  ['GET', '/sdk/upgrade/v1beta1/upgraded_consensus_state/{last_height}', `${UPGRADE}/UpgradedConsensusState`],
  // Inter-chain communication: /ibc/ is the upstream prefix too
  ['GET', '/ibc/core/client/v1/client_states', `${IBC_CLIENT}/ClientStates`],
  ['GET', '/ibc/core/client/v1/client_states/{client_id}', `${IBC_CLIENT}/ClientState`],
  ['GET', '/ibc/core/client/v1/client_status/{client_id}', `${IBC_CLIENT}/ClientStatus`],
  ['GET', '/ibc/core/client/v1/consensus_states/{client_id}', `${IBC_CLIENT}/ConsensusStates`],
  ['GET', '/ibc/core/client/v1/consensus_states/{client_id}/heights', `${IBC_CLIENT}/ConsensusStateHeights`],
  ['GET', '/ibc/core/client/v1/consensus_states/{client_id}/revision/{revision_number}/height/{revision_height}', `${IBC_CLIENT}/ConsensusState`],
  ['GET', '/ibc/core/client/v1/params', `${IBC_CLIENT}/ClientParams`],
  ['GET', '/ibc/core/client/v1/upgraded_client_states', `${IBC_CLIENT}/UpgradedClientState`],
  ['GET', '/ibc/core/client/v1/upgraded_consensus_states', `${IBC_CLIENT}/UpgradedConsensusState`],
  ['GET', '/ibc/core/connection/v1/client_connections/{client_id}', `${IBC_CONNECTION}/ClientConnections`],
  ['GET', '/ibc/core/connection/v1/connections', `${IBC_CONNECTION}/Connections`],
  ['GET', '/ibc/core/connection/v1/connections/{connection_id}', `${IBC_CONNECTION}/Connection`],
  ['GET', '/ibc/core/connection/v1/connections/{connection_id}/client_state', `${IBC_CONNECTION}/ConnectionClientState`],
  ['GET', '/ibc/core/connection/v1/connections/{connection_id}/consensus_state/revision/{revision_number}/height/{revision_height}', `${IBC_CONNECTION}/ConnectionConsensusState`],
  ['GET', '/ibc/core/connection/v1/params', `${IBC_CONNECTION}/ConnectionParams`],
  ['GET', '/ibc/core/channel/v1/channels', `${IBC_CHANNEL}/Channels`],
  ['GET', '/ibc/core/channel/v1/channels/{channel_id}/ports/{port_id}', `${IBC_CHANNEL}/Channel`],
  ['GET', '/ibc/core/channel/v1/channels/{channel_id}/ports/{port_id}/client_state', `${IBC_CHANNEL}/ChannelClientState`],
  ['GET', '/ibc/core/channel/v1/channels/{channel_id}/ports/{port_id}/consensus_state/revision/{revision_number}/height/{revision_height}', `${IBC_CHANNEL}/ChannelConsensusState`],
  ['GET', '/ibc/core/channel/v1/channels/{channel_id}/ports/{port_id}/next_sequence', `${IBC_CHANNEL}/NextSequenceReceive`],
  ['GET', '/ibc/core/channel/v1/channels/{channel_id}/ports/{port_id}/packet_acknowledgements', `${IBC_CHANNEL}/PacketAcknowledgements`],
  ['GET', '/ibc/core/channel/v1/channels/{channel_id}/ports/{port_id}/packet_acks/{sequence}', `${IBC_CHANNEL}/PacketAcknowledgement`],
  ['GET', '/ibc/core/channel/v1/channels/{channel_id}/ports/{port_id}/packet_commitments', `${IBC_CHANNEL}/PacketCommitments`],
  ['GET', '/ibc/core/channel/v1/channels/{channel_id}/ports/{port_id}/packet_commitments/{packet_ack_sequences}/unreceived_acks', `${IBC_CHANNEL}/UnreceivedAcks`],
  ['GET', '/ibc/core/channel/v1/channels/{channel_id}/ports/{port_id}/packet_commitments/{packet_commitment_sequences}/unreceived_packets', `${IBC_CHANNEL}/UnreceivedPackets`],
  ['GET', '/ibc/core/channel/v1/channels/{channel_id}/ports/{port_id}/packet_commitments/{sequence}', `${IBC_CHANNEL}/PacketCommitment`],
  ['GET', '/ibc/core/channel/v1/channels/{channel_id}/ports/{port_id}/packet_receipts/{sequence}', `${IBC_CHANNEL}/PacketReceipt`],
  ['GET', '/ibc/core/channel/v1/connections/{connection}/channels', `${IBC_CHANNEL}/ConnectionChannels`],
  ['GET', '/ibc/apps/transfer/v1/channels/{channel_id}/ports/{port_id}/escrow_address', `${IBC_TRANSFER}/EscrowAddress`],
  ['GET', '/ibc/apps/transfer/v1/denom_hashes/{trace=**}', `${IBC_TRANSFER}/DenomHash`],
  ['GET', '/ibc/apps/transfer/v1/denom_traces', `${IBC_TRANSFER}/DenomTraces`],
  ['GET', '/ibc/apps/transfer/v1/denom_traces/{hash=**}', `${IBC_TRANSFER}/DenomTrace`],
  ['GET', '/ibc/apps/transfer/v1/params', `${IBC_TRANSFER}/Params`],
  ['GET', '/ibc/apps/interchain_accounts/host/v1/params', `${ICA_HOST}/Params`],
  ['GET', '/ibc/apps/interchain_accounts/controller/v1/owners/{owner}/connections/{connection_id}', `${ICA_CONTROLLER}/InterchainAccount`],
  ['GET', '/ibc/apps/interchain_accounts/controller/v1/params', `${ICA_CONTROLLER}/Params`],
  ['GET', '/net/icamauth/v1beta1/interchain_account/owner/{owner}/connection/{connection_id}', `${ICAMAUTH}/InterchainAccount`],
  ['GET', '/ibc/apps/fee/v1/channels/{channel_id}/ports/{port_id}/fee_enabled', `${IBC_FEE}/FeeEnabledChannel`],
  ['GET', '/ibc/apps/fee/v1/channels/{channel_id}/ports/{port_id}/incentivized_packets', `${IBC_FEE}/IncentivizedPacketsForChannel`],
  ['GET', '/ibc/apps/fee/v1/channels/{channel_id}/relayers/{relayer}/counterparty_payee', `${IBC_FEE}/CounterpartyPayee`],
  ['GET', '/ibc/apps/fee/v1/channels/{channel_id}/relayers/{relayer}/payee', `${IBC_FEE}/Payee`],
  ['GET', '/ibc/apps/fee/v1/channels/{packet_id.channel_id}/ports/{packet_id.port_id}/sequences/{packet_id.sequence}/incentivized_packet', `${IBC_FEE}/IncentivizedPacket`],
  ['GET', '/ibc/apps/fee/v1/channels/{packet_id.channel_id}/ports/{packet_id.port_id}/sequences/{packet_id.sequence}/total_ack_fees', `${IBC_FEE}/TotalAckFees`],
  ['GET', '/ibc/apps/fee/v1/channels/{packet_id.channel_id}/ports/{packet_id.port_id}/sequences/{packet_id.sequence}/total_recv_fees', `${IBC_FEE}/TotalRecvFees`],
  ['GET', '/ibc/apps/fee/v1/channels/{packet_id.channel_id}/ports/{packet_id.port_id}/sequences/{packet_id.sequence}/total_timeout_fees', `${IBC_FEE}/TotalTimeoutFees`],
  ['GET', '/ibc/apps/fee/v1/fee_enabled', `${IBC_FEE}/FeeEnabledChannels`],
  ['GET', '/ibc/apps/fee/v1/incentivized_packets', `${IBC_FEE}/IncentivizedPackets`],
  // Fee routing (/feex/txfees/v1beta1 = bech32ibc, upstream /osmosis/txfees/v1beta1), all GET
  ['GET', '/feex/txfees/v1beta1/hrp_ibc_records', `${BECH32IBC}/HrpIbcRecords`],
  ['GET', '/feex/txfees/v1beta1/hrp_source_channel/{hrp}', `${BECH32IBC}/HrpIbcRecord`],
  ['GET', '/feex/txfees/v1beta1/native_hrp', `${BECH32IBC}/NativeHrp`],
];

/** The upstream path the SDK serves for the same method. */
function upstreamPath(specPath: string): string {
  if (specPath.startsWith('/ibc/')) return specPath;
  if (specPath.startsWith('/net/icamauth/')) return specPath.replace(/^\/net\//, '/aioz/');
  if (specPath.startsWith('/feex/')) return specPath.replace(/^\/feex\//, '/osmosis/');
  return specPath.replace(/^\/sdk\/base\/consensus\//, '/cosmos/base/tendermint/').replace(/^\/sdk\//, '/cosmos/');
}

const routes = httpRoutes();
const find = (method: string, pattern: string): HttpRoute[] =>
  routes.filter((r) => r.method === method && r.pattern === pattern);

describe('httpRoutes', () => {
  it('maps AllBalances to /cosmos/bank/v1beta1/balances/{address} and its /sdk/ twin', () => {
    const allBalances = routes.filter((r) => r.service === BANK && r.rpc === 'AllBalances');
    expect(allBalances.map((r) => [r.method, r.pattern, r.additional])).toEqual([
      ['GET', '/cosmos/bank/v1beta1/balances/{address}', false],
      ['GET', '/sdk/bank/v1beta1/balances/{address}', true],
    ]);
    expect(allBalances[0].descriptor.input).toBe(QueryAllBalancesRequestSchema);
    expect(allBalances[0].body).toBe('');
  });

  it.each(SPEC_PATHS)('serves %s %s (%s) on /sdk/ and upstream', (method, path, rpc) => {
    for (const pattern of [path, upstreamPath(path)]) {
      const matches = find(method, pattern);
      expect(matches.map((r) => `${r.service}/${r.rpc}`)).toContain(rpc);
      for (const route of matches) expect(route.body).toBe(method === 'POST' ? '*' : '');
    }
  });

  it('gives every Query/Service method of the served services an /sdk/ (/net/, /evmx/) alias of its upstream path', () => {
    for (const route of routes.filter((r) => !r.additional)) {
      if (route.pattern.startsWith('/ibc/')) {
        // The spec serves /ibc/ under its upstream name: no alias.
        expect(routes.filter((r) => r.additional && r.service === route.service && r.rpc === route.rpc)).toEqual([]);
        continue;
      }
      expect(['/cosmos/', '/aioz/', '/ethermint/', '/osmosis/'].some((prefix) => route.pattern.startsWith(prefix))).toBe(true);
      const aliases = routes.filter((r) => r.additional && r.service === route.service && r.rpc === route.rpc);
      expect(aliases.map((r) => r.pattern)).toContain(specAlias(route.pattern));
      for (const alias of aliases) expect([alias.method, alias.body]).toEqual([route.method, route.body]);
    }
    const annotated = new Set(routes.map((r) => `${r.service}/${r.rpc}`));
    const served = [ACCOUNTS, BANK, NODE, BLOCKS, STAKING, TX, DISTRIBUTION, SLASHING, EVIDENCE, GROUP, NET_STAKING, MINT, BONUS, EVM, FEEMARKET, UPGRADE, AUTHZ, FEEGRANT, GOV, GOV_V1BETA1, PARAMS, IBC_CLIENT, IBC_CONNECTION, IBC_CHANNEL, IBC_TRANSFER, AIOZRC20, ICA_CONTROLLER, ICA_HOST, ICAMAUTH, BECH32IBC, IBC_FEE];
    for (const route of routes) expect(served).toContain(route.service);
    expect(annotated.size).toBe(10 + 13 + 2 + 7 + 14 + 9 + 9 + 3 + 14 + 2 + 1 + 3 + 1 + 11 + 3 + 5 + 3 + 3 + 8 + 8 + 2 + 9 + 6 + 13 + 5 + 4 + 2 + 1 + 1 + 3 + 10);
  });

  it('names the fields bound by path variables', () => {
    expect(pathTemplateFields('/cosmos/staking/v1beta1/validators/{validator_addr}/delegations/{delegator_addr}')).toEqual([
      'validator_addr',
      'delegator_addr',
    ]);
    expect(pathTemplateFields('/x/{pagination.key=*}/y')).toEqual(['pagination.key']);
    expect(pathTemplateFields('/cosmos/bank/v1beta1/supply')).toEqual([]);
  });
});
