/**
 * The spec's Distribution, Evidence, slashing and network-staking endpoints (spec/SERVICE.md)
 * answer on the spec path (/sdk/…, /net/…) and on the upstream one (/cosmos/…, /aioz/…) with the
 * same body, on a full node behind the gateway, matching the gateway's own OpenAPI document.
 */
import { ApiServer } from '../../../src/node/api/index.js';
import { openApiValidator, type OpenApiValidator } from '../../helpers/openapi.js';
import { alice, startFullNode, validatorKey, type FullNode } from '../services/helpers.js';

const SDK_ROWS: string[] = [
  '/sdk/distribution/v1beta1/community_pool',
  '/sdk/distribution/v1beta1/delegators/{delegator_address}/rewards',
  '/sdk/distribution/v1beta1/delegators/{delegator_address}/rewards/{validator_address}',
  '/sdk/distribution/v1beta1/delegators/{delegator_address}/validators',
  '/sdk/distribution/v1beta1/delegators/{delegator_address}/withdraw_address',
  '/sdk/distribution/v1beta1/params',
  '/sdk/distribution/v1beta1/validators/{validator_address}/commission',
  '/sdk/distribution/v1beta1/validators/{validator_address}/outstanding_rewards',
  '/sdk/distribution/v1beta1/validators/{validator_address}/slashes',
  '/sdk/evidence/v1beta1/evidence',
  '/sdk/slashing/v1beta1/params',
  '/sdk/slashing/v1beta1/signing_infos',
  '/sdk/slashing/v1beta1/signing_infos/{cons_address}',
  '/net/staking/v1beta1/params',
];

async function get(url: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.json() };
}

describe('proof-of-stake spec endpoints', () => {
  let node: FullNode;
  let api: ApiServer;
  let url: string;
  let consAddress: string;
  let validator: OpenApiValidator | undefined;

  beforeAll(async () => {
    node = await startFullNode();
    api = new ApiServer({ router: node.router, options: { address: 'tcp://127.0.0.1:0' } });
    ({ url } = await api.start());
    consAddress = (await get(`${url}/sdk/slashing/v1beta1/signing_infos`)).body.info[0].address;
  });

  afterAll(async () => {
    await api.stop();
    await node.stop();
  });

  const concrete = (template: string): string =>
    template.replace('{delegator_address}', validatorKey.bech32).replace('{validator_address}', validatorKey.valoper).replace('{cons_address}', consAddress);
  const upstream = (path: string): string => path.replace(/^\/sdk\//, '/cosmos/').replace(/^\/net\//, '/aioz/');

  test.each(SDK_ROWS)('GET %s answers on both prefixes alike', async (template) => {
    const query = template.endsWith('/slashes') ? '?starting_height=0&ending_height=1000' : '';
    const spec = await get(`${url}${concrete(template)}${query}`);
    const up = await get(`${url}${concrete(upstream(template))}${query}`);
    expect([spec.status, up.status]).toEqual([200, 200]);
    validator ??= openApiValidator((await fetch(`${url}/swagger/openapi.json`).then((res) => res.json())) as never);
    expect(validator.check(template, 'GET', spec.body)).toEqual([]);
    if (!template.includes('rewards') && !template.includes('community_pool') && !template.includes('signing_infos')) expect(up.body).toEqual(spec.body);
  });

  test('answers carry the SDK shapes', async () => {
    const params = (await get(`${url}/sdk/distribution/v1beta1/params`)).body.params;
    expect(params).toEqual({ community_tax: '0.020000000000000000', base_proposer_reward: '0.010000000000000000', bonus_proposer_reward: '0.040000000000000000', withdraw_addr_enabled: true });
    const slashing = (await get(`${url}/sdk/slashing/v1beta1/params`)).body.params;
    expect(slashing).toEqual({ signed_blocks_window: '100', min_signed_per_window: '0.500000000000000000', downtime_jail_duration: '600s', slash_fraction_double_sign: '0.050000000000000000', slash_fraction_downtime: '0.010000000000000000' });
    const net = (await get(`${url}/net/staking/v1beta1/params`)).body.params;
    expect(net).toMatchObject({ max_validators: 100, bond_denom: 'attotoken', accept_all_validators: true });
    const withdraw = (await get(`${url}/sdk/distribution/v1beta1/delegators/${alice.bech32}/withdraw_address`)).body;
    expect(withdraw).toEqual({ withdraw_address: alice.bech32 });
    const missing = await get(`${url}/sdk/evidence/v1beta1/evidence/${Buffer.from('00'.repeat(32), 'hex').toString('base64')}`);
    expect(missing.status).toBe(404);
  });
});
