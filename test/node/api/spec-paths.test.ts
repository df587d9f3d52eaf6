/**
 * Every endpoint of the spec's groups Accounts, Bank, Node and blocks, Transactions, Upgrade, Authorization and fee grants
 * (authz, feegrant), Groups, Inter-chain communication (02-client), and the network's mint and bonus (spec/SERVICE.md "Endpoints") — answers on the spec's /sdk/... (/net/...)
 * path and on the upstream /cosmos/... (/aioz/...) path, with the same answer, on a full node (app + consensus + indexer) behind the
 * gateway; and the OpenAPI document lists both templates of each. Plus the transaction flow a
 * service provider scripts over REST: broadcast, find by hash, find by event, block with txs.
 */
import { create } from '@bufbuild/protobuf';
import { DurationSchema } from '@bufbuild/protobuf/wkt';
import { MsgCreateGroupWithPolicySchema, MsgSubmitProposalSchema, MsgVoteSchema } from '../../../src/gen/cosmos/group/v1/tx_pb.js';
import { DecisionPolicyWindowsSchema, MemberRequestSchema, ThresholdDecisionPolicySchema, VoteOption } from '../../../src/gen/cosmos/group/v1/types_pb.js';
import { ApiServer } from '../../../src/node/api/index.js';
import { GenericAuthorizationSchema, GrantSchema } from '../../../src/gen/cosmos/authz/v1beta1/authz_pb.js';
import { MsgGrantSchema } from '../../../src/gen/cosmos/authz/v1beta1/tx_pb.js';
import { BasicAllowanceSchema } from '../../../src/gen/cosmos/feegrant/v1beta1/feegrant_pb.js';
import { MsgGrantAllowanceSchema } from '../../../src/gen/cosmos/feegrant/v1beta1/tx_pb.js';
import { coin, pack } from '../app/helpers.js';
import { anyPack } from '../../../src/node/codec/index.js';
import { groupPolicyAddress } from '../../../src/node/modules/group/address.js';
import { accString } from '../../../src/node/modules/shared/address.js';
import { TOKEN, alice, aliceSends, bob, carol, msgSend, signTx, startFullNode, type FullNode } from '../services/helpers.js';

/** The first group policy's account. */
const policyAddress = accString(groupPolicyAddress(1n));
import { openApiValidator, type OpenApiValidator } from '../../helpers/openapi.js';
import { TimestampSchema } from '@bufbuild/protobuf/wkt';
import { MsgCreateClientSchema } from '../../../src/gen/ibc/core/client/v1/tx_pb.js';
import { MsgConnectionOpenInitSchema } from '../../../src/gen/ibc/core/connection/v1/tx_pb.js';
import { MerkleRootSchema } from '../../../src/gen/ibc/core/commitment/v1/commitment_pb.js';
import { ClientStateSchema as TmClientStateSchema, ConsensusStateSchema as TmConsensusStateSchema } from '../../../src/gen/ibc/lightclients/tendermint/v1/tendermint_pb.js';
import { height, testClientState } from '../../helpers/ibcHeaders.js';

interface SpecEndpoint {
  verb: 'GET' | 'POST';
  /** Spec path (under /sdk/...). */
  sdk: string;
  /** Upstream path (under /cosmos/...). */
  cosmos: string;
}

/** The spec's table rows: [verb, path relative to the group's base]. */
const SPEC_GROUPS: Record<string, { sdk: string; cosmos: string; rows: [SpecEndpoint['verb'], string][] }> = {
  Accounts: {
    sdk: '/sdk/auth/v1beta1',
    cosmos: '/cosmos/auth/v1beta1',
    rows: [
      ['GET', '/accounts'],
      ['GET', '/accounts/{address}'],
      ['GET', '/address_by_id/{id}'],
      ['GET', '/bech32'],
      ['GET', '/bech32/{address_bytes}'],
      ['GET', '/bech32/{address_string}'],
      ['GET', '/module_accounts'],
      ['GET', '/module_accounts/{name}'],
      ['GET', '/params'],
    ],
  },
  Bank: {
    sdk: '/sdk/bank/v1beta1',
    cosmos: '/cosmos/bank/v1beta1',
    rows: [
      ['GET', '/balances/{address}'],
      ['GET', '/balances/{address}/by_denom'],
      ['GET', '/denom_owners/{denom}'],
      ['GET', '/denoms_metadata'],
      ['GET', '/denoms_metadata/{denom}'],
      ['GET', '/params'],
      ['GET', '/spendable_balances/{address}'],
      ['GET', '/supply'],
      ['GET', '/supply/by_denom'],
    ],
  },
  'Node and blocks (node)': {
    sdk: '/sdk/base/node/v1beta1',
    cosmos: '/cosmos/base/node/v1beta1',
    rows: [['GET', '/config']],
  },
  'Node and blocks (consensus)': {
    sdk: '/sdk/base/consensus/v1beta1',
    cosmos: '/cosmos/base/tendermint/v1beta1',
    rows: [
      ['GET', '/abci_query'],
      ['GET', '/blocks/latest'],
      ['GET', '/blocks/{height}'],
      ['GET', '/node_info'],
      ['GET', '/syncing'],
      ['GET', '/validatorsets/latest'],
      ['GET', '/validatorsets/{height}'],
    ],
  },
  'Minting (network)': {
    sdk: '/net/mint/v1',
    cosmos: '/aioz/mint/v1',
    rows: [
      ['GET', '/annual_inflation'],
      ['GET', '/inflation'],
      ['GET', '/params'],
    ],
  },
  'Network-specific (bonus)': {
    sdk: '/net/bonus/v1',
    cosmos: '/aioz/bonus/v1',
    rows: [['GET', '/params']],
  },
  'Network-specific (netrc20)': {
    sdk: '/net/netrc20/v1',
    cosmos: '/aioz/aiozrc20/v1',
    rows: [
      ['GET', '/converter_address'],
      ['GET', '/params'],
      ['GET', '/token_pairs'],
      ['GET', '/token_pairs/{token}'],
    ],
  },
  'Authorization (authz)': {
    sdk: '/sdk/authz/v1beta1',
    cosmos: '/cosmos/authz/v1beta1',
    rows: [
      ['GET', '/grants'],
      ['GET', '/grants/grantee/{grantee}'],
      ['GET', '/grants/granter/{granter}'],
    ],
  },
  'Fee grants (feegrant)': {
    sdk: '/sdk/feegrant/v1beta1',
    cosmos: '/cosmos/feegrant/v1beta1',
    rows: [
      ['GET', '/allowance/{granter}/{grantee}'],
      ['GET', '/allowances/{grantee}'],
      ['GET', '/issued/{granter}'],
    ],
  },
  Groups: {
    sdk: '/sdk/group/v1',
    cosmos: '/cosmos/group/v1',
    rows: [
      ['GET', '/group_info/{group_id}'],
      ['GET', '/group_members/{group_id}'],
      ['GET', '/group_policies_by_admin/{admin}'],
      ['GET', '/group_policies_by_group/{group_id}'],
      ['GET', '/group_policy_info/{address}'],
      ['GET', '/groups_by_admin/{admin}'],
      ['GET', '/groups_by_member/{address}'],
      ['GET', '/proposal/{proposal_id}'],
      ['GET', '/proposals/{proposal_id}/tally'],
      ['GET', '/proposals_by_group_policy/{address}'],
      ['GET', '/vote_by_proposal_voter/{proposal_id}/{voter}'],
      ['GET', '/votes_by_proposal/{proposal_id}'],
      ['GET', '/votes_by_voter/{voter}'],
    ],
  },
  'Governance (v1beta1)': {
    sdk: '/sdk/gov/v1beta1',
    cosmos: '/cosmos/gov/v1beta1',
    rows: [
      ['GET', '/params/{params_type}'],
      ['GET', '/proposals'],
    ],
  },
  'Governance (v1)': {
    sdk: '/sdk/gov/v1',
    cosmos: '/cosmos/gov/v1',
    rows: [
      ['GET', '/params/{params_type}'],
      ['GET', '/proposals'],
    ],
  },
  Parameters: {
    sdk: '/sdk/params/v1beta1',
    cosmos: '/cosmos/params/v1beta1',
    rows: [
      ['GET', '/params'],
      ['GET', '/subspaces'],
    ],
  },
  Transactions: {
    sdk: '/sdk/tx/v1beta1',
    cosmos: '/cosmos/tx/v1beta1',
    rows: [
      ['POST', '/simulate'],
      ['GET', '/txs'],
      ['POST', '/txs'],
      ['GET', '/txs/block/{height}'],
      ['GET', '/txs/{hash}'],
    ],
  },
  'Inter-chain communication (client)': {
    // The spec serves /ibc/ under its upstream name.
    sdk: '/ibc/core/client/v1',
    cosmos: '/ibc/core/client/v1',
    rows: [
      ['GET', '/client_states'],
      ['GET', '/client_states/{client_id}'],
      ['GET', '/client_status/{client_id}'],
      ['GET', '/consensus_states/{client_id}'],
      ['GET', '/consensus_states/{client_id}/heights'],
      ['GET', '/consensus_states/{client_id}/revision/{revision_number}/height/{revision_height}'],
      ['GET', '/params'],
    ],
  },
  'Inter-chain communication (connection)': {
    sdk: '/ibc/core/connection/v1',
    cosmos: '/ibc/core/connection/v1',
    rows: [
      ['GET', '/client_connections/{client_id}'],
      ['GET', '/connections'],
      ['GET', '/connections/{connection_id}'],
      ['GET', '/connections/{connection_id}/client_state'],
      ['GET', '/connections/{connection_id}/consensus_state/revision/{revision_number}/height/{revision_height}'],
      ['GET', '/params'],
    ],
  },
  'Inter-chain communication (transfer)': {
    sdk: '/ibc/apps/transfer/v1',
    cosmos: '/ibc/apps/transfer/v1',
    rows: [
      ['GET', '/channels/{channel_id}/ports/{port_id}/escrow_address'],
      ['GET', '/denom_traces'],
      ['GET', '/params'],
    ],
  },
  'Inter-chain communication (interchain accounts host)': {
    sdk: '/ibc/apps/interchain_accounts/host/v1',
    cosmos: '/ibc/apps/interchain_accounts/host/v1',
    rows: [['GET', '/params']],
  },
  'Inter-chain communication (interchain accounts controller)': {
    sdk: '/ibc/apps/interchain_accounts/controller/v1',
    cosmos: '/ibc/apps/interchain_accounts/controller/v1',
    rows: [['GET', '/params']],
  },
  'Inter-chain communication (fee)': {
    // The per-packet, per-relayer rows answer NotFound without escrowed fees: tested below.
    sdk: '/ibc/apps/fee/v1',
    cosmos: '/ibc/apps/fee/v1',
    rows: [
      ['GET', '/channels/{channel_id}/ports/{port_id}/fee_enabled'],
      ['GET', '/channels/{channel_id}/ports/{port_id}/incentivized_packets'],
      ['GET', '/fee_enabled'],
      ['GET', '/incentivized_packets'],
    ],
  },
  'Fee routing (bech32ibc)': {
    // hrp_source_channel/{hrp}: below (no record exists in this chain's genesis).
    sdk: '/feex/txfees/v1beta1',
    cosmos: '/osmosis/txfees/v1beta1',
    rows: [
      ['GET', '/hrp_ibc_records'],
      ['GET', '/native_hrp'],
    ],
  },
  Upgrade: {
    sdk: '/sdk/upgrade/v1beta1',
    cosmos: '/cosmos/upgrade/v1beta1',
    rows: [
      ['GET', '/applied_plan/{name}'],
      ['GET', '/authority'],
      ['GET', '/current_plan'],
      ['GET', '/module_versions'],
      ['GET', '/upgraded_consensus_state/{last_height}'],
    ],
  },
};

const SPEC_ENDPOINTS: SpecEndpoint[] = Object.values(SPEC_GROUPS).flatMap((group) =>
  group.rows.map(([verb, path]) => ({ verb, sdk: `${group.sdk}${path}`, cosmos: `${group.cosmos}${path}` })),
);

/** Answers that change from one call to the next (new blocks, mempool state, IBC proof heights). */
const DYNAMIC = /\/(blocks\/latest|validatorsets\/latest|abci_query|txs)$|\/config$|\/simulate$|\/client_states\/\{client_id\}$|\/height\/\{revision_height\}$|\/connection\/v1\/(connections(\/\{connection_id\}(\/client_state)?)?|client_connections\/\{client_id\})$/;

async function request(url: string, init: RequestInit = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body, headers: res.headers };
}

describe('the spec endpoints of Accounts, Bank, Node and blocks, Transactions', () => {
  let node: FullNode;
  let api: ApiServer;
  let url: string;
  let txHash: string;
  let txHeight: number;
  let sequence = 0n;

  const PAIR_ADDRESS = '0x1111111111111111111111111111111111111111';

  beforeAll(async () => {
    // A token pair in the converter's genesis, for the /net/netrc20/v1/token_pairs/{token} row.
    node = await startFullNode({
      editAppState: (state) => ({ ...state, aiozrc20: { params: { enabled: true, evm_hook_enabled: true }, token_pairs: [{ aiozrc20_address: PAIR_ADDRESS, denom: 'paircoin', enabled: true, contract_owner: 'OWNER_MODULE' }] } }),
    });
    api = new ApiServer({ router: node.router, options: { address: 'tcp://127.0.0.1:0' } });
    ({ url } = await api.start());
    // One committed transfer to look up.
    const res = await request(`${url}/sdk/tx/v1beta1/txs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tx_bytes: Buffer.from(aliceSends(bob, 5n * TOKEN, sequence++)).toString('base64'), mode: 'BROADCAST_MODE_BLOCK' }),
    });
    expect(res.status).toBe(200);
    expect(res.body.tx_response.code).toBe(0);
    txHash = res.body.tx_response.txhash;
    txHeight = Number(res.body.tx_response.height);
    // A grant and a fee allowance from alice to bob, for the authz and feegrant rows.
    const grants = signTx({
      signer: alice,
      msgs: [
        pack(MsgGrantSchema, { granter: alice.bech32, grantee: bob.bech32, grant: create(GrantSchema, { authorization: pack(GenericAuthorizationSchema, { msg: '/cosmos.bank.v1beta1.MsgSend' }) }) }),
        pack(MsgGrantAllowanceSchema, { granter: alice.bech32, grantee: bob.bech32, allowance: pack(BasicAllowanceSchema, { spendLimit: [coin(1000n)] }) }),
      ],
      sequence: sequence++,
      accountNumber: 0n,
      fee: 2000n,
      gas: 300_000n,
    });
    const granted = await request(`${url}/sdk/tx/v1beta1/txs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tx_bytes: Buffer.from(grants).toString('base64'), mode: 'BROADCAST_MODE_BLOCK' }) });
    expect(granted.body.tx_response.code).toBe(0);
    // A group of alice with a policy, a proposal and alice's vote, for the group endpoints.
    const windows = create(DecisionPolicyWindowsSchema, { votingPeriod: create(DurationSchema, { seconds: 3600n }) });
    const groupMsgs = [
      anyPack(MsgCreateGroupWithPolicySchema, create(MsgCreateGroupWithPolicySchema, {
        admin: alice.bech32,
        members: [create(MemberRequestSchema, { address: alice.bech32, weight: '1' })],
        decisionPolicy: anyPack(ThresholdDecisionPolicySchema, create(ThresholdDecisionPolicySchema, { threshold: '1', windows })),
      })),
      anyPack(MsgSubmitProposalSchema, create(MsgSubmitProposalSchema, { groupPolicyAddress: policyAddress, proposers: [alice.bech32], messages: [msgSend(policyAddress, bob.bech32, 1n)] })),
      anyPack(MsgVoteSchema, create(MsgVoteSchema, { proposalId: 1n, voter: alice.bech32, option: VoteOption.YES })),
    ];
    const group = await request(`${url}/sdk/tx/v1beta1/txs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tx_bytes: Buffer.from(signTx({ signer: alice, msgs: groupMsgs, sequence: sequence++, accountNumber: 0n, fee: 4000n, gas: 400_000n })).toString('base64'), mode: 'BROADCAST_MODE_BLOCK' }),
    });
    expect([group.status, group.body.tx_response.code, group.body.tx_response.raw_log]).toEqual([200, 0, '']);
    // A light client of another chain (07-tendermint-0 at 1-10), for the IBC client endpoints.
    const now = BigInt(Math.floor(Date.now() / 1000));
    const createClient = anyPack(MsgCreateClientSchema, create(MsgCreateClientSchema, {
      clientState: anyPack(TmClientStateSchema, testClientState('chainb-1', height(1n, 10n))),
      consensusState: anyPack(TmConsensusStateSchema, create(TmConsensusStateSchema, { timestamp: create(TimestampSchema, { seconds: now - 60n }), root: create(MerkleRootSchema, { hash: new Uint8Array(32).fill(1) }), nextValidatorsHash: new Uint8Array(32).fill(2) })),
      signer: alice.bech32,
    }));
    // …and a connection on it in INIT (connection-0), for the IBC connection endpoints.
    const openInit = anyPack(MsgConnectionOpenInitSchema, create(MsgConnectionOpenInitSchema, {
      clientId: '07-tendermint-0',
      counterparty: { clientId: '07-tendermint-0', connectionId: '', prefix: { keyPrefix: new TextEncoder().encode('ibc') } },
      signer: alice.bech32,
    }));
    const client = await request(`${url}/sdk/tx/v1beta1/txs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tx_bytes: Buffer.from(signTx({ signer: alice, msgs: [createClient, openInit], sequence: sequence++, accountNumber: 0n, fee: 6000n, gas: 600_000n })).toString('base64'), mode: 'BROADCAST_MODE_BLOCK' }),
    });
    expect([client.status, client.body.tx_response.code, client.body.tx_response.raw_log]).toEqual([200, 0, '']);
  });

  afterAll(async () => {
    await api.stop();
    await node.stop();
  });

  function concrete(template: string): string {
    return template
      .replace(/(group_policy_info|proposals_by_group_policy)\/\{address\}/, `$1/${policyAddress}`)
      .replace('{group_id}', '1')
      .replace('{proposal_id}', '1')
      .replace('{admin}', alice.bech32)
      .replace('{voter}', alice.bech32)
      .replace('{address}', alice.bech32)
      .replace('{id}', '0')
      .replace('{address_bytes}', encodeURIComponent(Buffer.from(alice.address).toString('base64')))
      .replace('{address_string}', alice.bech32)
      .replace('{name}', 'fee_collector')
      .replace('{granter}', alice.bech32)
      .replace('{grantee}', bob.bech32)
      .replace('{denom}', 'attotoken')
      .replace('{height}', String(txHeight))
      .replace('{last_height}', String(txHeight))
      .replace('{hash}', txHash)
      .replace('{params_type}', 'tallying')
      .replace('{client_id}', '07-tendermint-0')
      .replace('{connection_id}', 'connection-0')
      .replace('{channel_id}', 'channel-0')
      .replace('{port_id}', 'transfer')
      .replace('{revision_number}', '1')
      .replace('{revision_height}', '10')
      .replace('{token}', 'paircoin');
  }

  function queryOf(template: string): string {
    if (template.endsWith('/by_denom')) return '?denom=attotoken';
    if (template.endsWith('/params/v1beta1/params')) return '?subspace=staking&key=MaxValidators';
    if (template.endsWith('/abci_query')) return '?path=%2Fapp%2Fversion';
    if (template.endsWith('/grants')) return `?granter=${alice.bech32}&grantee=${bob.bech32}`;
    if (template.endsWith('/txs')) return `?query=${encodeURIComponent(`transfer.recipient='${bob.bech32}'`)}`;
    return '';
  }

  let tableTx: Uint8Array | undefined;
  let validator: OpenApiValidator | undefined;

  function bodyOf(template: string): string | undefined {
    if (template.endsWith('/simulate')) return JSON.stringify({ tx_bytes: Buffer.from(aliceSends(carol, 1n, sequence)).toString('base64') });
    if (template.endsWith('/txs')) {
      // One tx for both prefixes: the second answer is code 19 (already in the mempool cache).
      tableTx ??= aliceSends(carol, 1n, sequence++);
      return JSON.stringify({ tx_bytes: Buffer.from(tableTx).toString('base64'), mode: 'BROADCAST_MODE_SYNC' });
    }
    return undefined;
  }

  test.each(SPEC_ENDPOINTS.map((e) => [`${e.verb} ${e.sdk}`, e] as const))('%s answers on /sdk and /cosmos alike', async (_name, endpoint) => {
    const init = (): RequestInit => (endpoint.verb === 'POST' ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: bodyOf(endpoint.sdk)! } : {});
    const spec = await request(`${url}${concrete(endpoint.sdk)}${endpoint.verb === 'GET' ? queryOf(endpoint.sdk) : ''}`, init());
    const upstream = await request(`${url}${concrete(endpoint.cosmos)}${endpoint.verb === 'GET' ? queryOf(endpoint.cosmos) : ''}`, init());
    for (const res of [spec, upstream]) {
      expect(res.status).toBe(200);
      expect(res.headers.get('x-cosmos-block-height')).toMatch(/^\d+$/);
    }
    // What the server sends matches its own OpenAPI document (nulls included).
    validator ??= openApiValidator((await request(`${url}/swagger/openapi.json`)).body);
    expect(validator.check(endpoint.sdk, endpoint.verb, spec.body)).toEqual([]);
    expect(validator.check(endpoint.cosmos, endpoint.verb, upstream.body)).toEqual([]);
    if (!DYNAMIC.test(endpoint.sdk)) expect(upstream.body).toEqual(spec.body);
  });

  test('an owner without an interchain account: NotFound (404) from the controller and from icamauth (/net/ and /aioz/)', async () => {
    const paths = [
      `/ibc/apps/interchain_accounts/controller/v1/owners/${alice.bech32}/connections/connection-0`,
      `/net/icamauth/v1beta1/interchain_account/owner/${alice.bech32}/connection/connection-0`,
      `/aioz/icamauth/v1beta1/interchain_account/owner/${alice.bech32}/connection/connection-0`,
    ];
    const answers = await Promise.all(paths.map((path) => request(`${url}${path}`)));
    expect(answers.map((answer) => answer.status)).toEqual([404, 404, 404]);
    expect(answers[0]!.body.message).toContain(`failed to retrieve account address for icacontroller-${alice.bech32} on connection connection-0`);
    expect(answers[1]!.body.message).toContain(`no account found for portID icacontroller-${alice.bech32}`);
    expect(answers[2]!.body).toEqual(answers[1]!.body);
  });

  test('the fee queries of a packet or relayer without fees answer ibc-go\'s NotFound (404)', async () => {
    const packet = '/ibc/apps/fee/v1/channels/channel-0/ports/transfer/sequences/1';
    for (const path of [`${packet}/incentivized_packet`, `${packet}/total_recv_fees`, `${packet}/total_ack_fees`, `${packet}/total_timeout_fees`]) {
      const res = await request(`${url}${path}`);
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.body.message).toContain('there is no fee escrowed for the given packetID');
    }
    for (const kind of ['payee', 'counterparty_payee']) {
      const res = await request(`${url}/ibc/apps/fee/v1/channels/channel-0/relayers/${alice.bech32}/${kind}`);
      expect(res.status).toBe(404);
      expect(res.body.message).toContain(`not found for address: ${alice.bech32} on channel: channel-0`);
    }
  });

  test('the fee-routing record of an unknown prefix answers bech32ibc\'s record-not-found on /feex and /osmosis alike', async () => {
    for (const prefix of ['/feex', '/osmosis']) {
      const res = await request(`${url}${prefix}/txfees/v1beta1/hrp_source_channel/cosmos`);
      expect(res.status).not.toBe(200);
      expect(res.body.message).toContain('hrp record not found for cosmos');
    }
    const native = await request(`${url}/feex/txfees/v1beta1/native_hrp`);
    expect(native.body).toEqual({ native_hrp: 'token' });
  });

  test('the IBC upgrade queries answer NotFound (404) without a scheduled upgrade, as ibc-go', async () => {
    const client = await request(`${url}/ibc/core/client/v1/upgraded_client_states`);
    expect(client.status).toBe(404);
    expect(client.body.message).toContain('upgrade plan not found');
    const consensus = await request(`${url}/ibc/core/client/v1/upgraded_consensus_states`);
    expect(consensus.status).toBe(404);
    expect(consensus.body.message).toMatch(/consensus state not found, height \d+/);
    const doc = (await request(`${url}/swagger/openapi.json`)).body;
    expect(doc.paths['/ibc/core/client/v1/upgraded_client_states']?.get).toBeDefined();
    expect(doc.paths['/ibc/core/client/v1/upgraded_consensus_states']?.get).toBeDefined();
  });

  test('the OpenAPI document has both templates of every spec endpoint', async () => {
    const doc = (await request(`${url}/swagger/openapi.json`)).body;
    for (const endpoint of SPEC_ENDPOINTS) {
      for (const path of [endpoint.sdk, endpoint.cosmos]) {
        expect(doc.paths[path]?.[endpoint.verb.toLowerCase()]).toBeDefined();
      }
    }
  });

  test('/validatorsets/latest is not read as /validatorsets/{height}; blocks/{height} answers the height asked', async () => {
    const latest = await request(`${url}/sdk/base/consensus/v1beta1/validatorsets/latest`);
    expect(latest.status).toBe(200);
    expect(latest.body.validators[0].address).toMatch(/^tokenvalcons1/);
    expect(latest.body.validators[0].pub_key['@type']).toBe('/cosmos.crypto.ed25519.PubKey');
    expect(latest.body.pagination).toEqual({ next_key: null, total: '1' });
    const block = await request(`${url}/sdk/base/consensus/v1beta1/blocks/${txHeight}`);
    expect(block.body.block.header.height).toBe(String(txHeight));
    expect(block.body.sdk_block.header.proposer_address).toMatch(/^tokenvalcons1/);
    expect(block.body.block_id.hash).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(block.body.block.data.txs).toHaveLength(1);
    const future = await request(`${url}/sdk/base/consensus/v1beta1/blocks/999999`);
    expect(future.status).toBe(400);
    const notNumber = await request(`${url}/sdk/base/consensus/v1beta1/blocks/abc`);
    expect(notNumber.status).toBe(400);
    expect(notNumber.body.message).toBe('invalid value "abc" for height: expected a 64-bit integer');
  });

  test('a transfer over REST: broadcast SYNC, then by hash, by event (query or 0.47 events, enum order_by), block with txs', async () => {
    const tx = aliceSends(bob, 7n, sequence++);
    const sent = await request(`${url}/sdk/tx/v1beta1/txs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tx_bytes: Buffer.from(tx).toString('base64'), mode: 'BROADCAST_MODE_SYNC' }),
    });
    expect(sent.status).toBe(200);
    expect(sent.body.tx_response).toMatchObject({ height: '0', code: 0, codespace: '', raw_log: '', logs: [], tx: null, timestamp: '', events: [] });
    const hash: string = sent.body.tx_response.txhash;

    let found: Awaited<ReturnType<typeof request>> | undefined;
    for (let i = 0; i < 300; i++) {
      found = await request(`${url}/sdk/tx/v1beta1/txs/${hash}`);
      if (found.status === 200) break;
      expect(found.status).toBe(404);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(found!.status).toBe(200);
    const r = found!.body.tx_response;
    expect(Object.keys(r)).toEqual(['height', 'txhash', 'codespace', 'code', 'data', 'raw_log', 'logs', 'info', 'gas_wanted', 'gas_used', 'tx', 'timestamp', 'events']);
    expect(r.txhash).toBe(hash);
    expect(r.tx['@type']).toBe('/cosmos.tx.v1beta1.Tx');
    expect(r.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(found!.body.tx.body.messages[0]).toMatchObject({ '@type': '/cosmos.bank.v1beta1.MsgSend', to_address: bob.bech32, amount: [{ denom: 'attotoken', amount: '7' }] });

    const byEvents = await request(`${url}/cosmos/tx/v1beta1/txs?events=${encodeURIComponent(`transfer.recipient='${bob.bech32}'`)}&events=${encodeURIComponent(`message.sender='${alice.bech32}'`)}&order_by=ORDER_BY_DESC`);
    expect(byEvents.status).toBe(200);
    expect(byEvents.body.total).toBe('2');
    expect(byEvents.body.tx_responses.map((x: { txhash: string }) => x.txhash)).toEqual([hash, txHash]);
    expect(byEvents.body.txs).toHaveLength(2);
    const paged = await request(`${url}/sdk/tx/v1beta1/txs?query=${encodeURIComponent(`transfer.recipient='${bob.bech32}'`)}&limit=1&page=2`);
    expect(paged.body.total).toBe('2');
    expect(paged.body.tx_responses.map((x: { txhash: string }) => x.txhash)).toEqual([hash]);
    const badOrder = await request(`${url}/sdk/tx/v1beta1/txs?query=${encodeURIComponent("tm.event='Tx'")}&order_by=SIDEWAYS`);
    expect(badOrder.status).toBe(400);
    const noQuery = await request(`${url}/sdk/tx/v1beta1/txs`);
    expect(noQuery.status).toBe(400);
    expect(noQuery.body.message).toBe('query cannot be empty');

    const withTxs = await request(`${url}/sdk/tx/v1beta1/txs/block/${r.height}`);
    expect(withTxs.status).toBe(200);
    expect(withTxs.body.txs[0].body.messages[0]['@type']).toBe('/cosmos.bank.v1beta1.MsgSend');
    expect(withTxs.body.pagination).toEqual({ next_key: null, total: String(withTxs.body.block.data.txs.length) });
    expect(withTxs.body.block_id.part_set_header.total).toBe(1);

    const missing = await request(`${url}/sdk/tx/v1beta1/txs/${'0'.repeat(64)}`);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe(`tx not found: ${'0'.repeat(64)}`);
    const blockMode = await request(`${url}/sdk/tx/v1beta1/txs`, { method: 'POST', body: JSON.stringify({ tx_bytes: 'AAAA', mode: 'BROADCAST_MODE_UNSPECIFIED' }) });
    expect(blockMode.status).toBe(400);
  });
});
