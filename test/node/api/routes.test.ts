/**
 * The gateway's route table and parameter decoding, without a server: every http rule (and every
 * additional binding) of the generated services is reachable, the most specific template wins,
 * and query/path values decode by field type as grpc-gateway does.
 */
import { ScalarType, create } from '@bufbuild/protobuf';
import { QueryAllBalancesRequestSchema } from '../../../src/gen/cosmos/bank/v1beta1/query_pb.js';
import { GetTxsEventRequestSchema, OrderBy } from '../../../src/gen/cosmos/tx/v1beta1/service_pb.js';
import { RouteTable, compileRoute } from '../../../src/node/api/index.js';
import { applyQueryString, parseBase64, planForPath, queryParamPlans, setParam } from '../../../src/node/api/params.js';
import { httpRoutes } from '../../../src/node/codec/index.js';
import { QueryError } from '../../../src/node/services/index.js';

const table = new RouteTable(httpRoutes().map((route) => compileRoute(route, undefined)));
const ADDRESS = 'token1kkgmmahsmpldmek2d28ydh9dy2xr3zwzdvp9h4';

function matched(verb: string, path: string): string {
  const result = table.match(verb, path);
  return result.kind === 'found' ? `${result.route.path} ${result.values.join(',')}`.trim() : result.kind;
}

describe('route table', () => {
  test('has a route for every http rule and additional binding (/cosmos and /sdk)', () => {
    const routes = httpRoutes();
    expect(table.routes).toHaveLength(routes.length);
    expect(routes.some((r) => r.pattern.startsWith('/sdk/'))).toBe(true);
    expect(routes.some((r) => r.pattern.startsWith('/cosmos/'))).toBe(true);
  });

  test('every template is reachable and resolves to its own method', () => {
    for (const route of table.routes) {
      const concrete = route.pattern.replace(/\{([^}=]+)(=[^}]*)?\}/g, (_m, field: string) => {
        const plan = route.pathParams.find((p) => p.name === field)!;
        const leaf = plan.fields[plan.fields.length - 1]!;
        if (leaf.fieldKind === 'scalar' && leaf.scalar === ScalarType.BYTES) return 'AAEC';
        if (leaf.fieldKind === 'scalar' && leaf.scalar !== ScalarType.STRING) return '7';
        return field.includes('address') ? ADDRESS : 'value';
      });
      const result = table.match(route.verb, concrete);
      expect(result.kind).toBe('found');
      if (result.kind === 'found') expect(`${route.pattern} → ${result.route.path}`).toBe(`${route.pattern} → ${route.path}`);
    }
  });

  test('the most specific template wins, segment by segment', () => {
    expect(matched('GET', `/cosmos/bank/v1beta1/balances/${ADDRESS}`)).toBe(`/cosmos.bank.v1beta1.Query/AllBalances ${ADDRESS}`);
    expect(matched('GET', `/sdk/bank/v1beta1/balances/${ADDRESS}/by_denom`)).toBe(`/cosmos.bank.v1beta1.Query/Balance ${ADDRESS}`);
    expect(matched('GET', '/sdk/base/consensus/v1beta1/validatorsets/latest')).toBe('/cosmos.base.tendermint.v1beta1.Service/GetLatestValidatorSet');
    expect(matched('GET', '/sdk/base/consensus/v1beta1/validatorsets/12')).toBe('/cosmos.base.tendermint.v1beta1.Service/GetValidatorSetByHeight 12');
    expect(matched('GET', '/cosmos/tx/v1beta1/txs/block/5')).toBe('/cosmos.tx.v1beta1.Service/GetBlockWithTxs 5');
    expect(matched('GET', '/cosmos/tx/v1beta1/txs/ABCD')).toBe('/cosmos.tx.v1beta1.Service/GetTx ABCD');
    expect(matched('GET', '/cosmos/bank/v1beta1/supply/by_denom')).toBe('/cosmos.bank.v1beta1.Query/SupplyOf');
  });

  test('verbs: the same template answers GET and POST with different methods; another verb is method-not-allowed', () => {
    expect(matched('GET', '/sdk/tx/v1beta1/txs')).toBe('/cosmos.tx.v1beta1.Service/GetTxsEvent');
    expect(matched('POST', '/sdk/tx/v1beta1/txs')).toBe('/cosmos.tx.v1beta1.Service/BroadcastTx');
    expect(matched('DELETE', '/sdk/tx/v1beta1/txs')).toBe('method-not-allowed');
    expect(matched('GET', '/sdk/tx/v1beta1/nothing')).toBe('not-found');
    expect(matched('GET', 'no-leading-slash')).toBe('not-found');
  });

  test('identical templates: bech32 values go to AddressStringToBytes, base64 to AddressBytesToString', () => {
    expect(matched('GET', `/cosmos/auth/v1beta1/bech32/${ADDRESS}`)).toBe(`/cosmos.auth.v1beta1.Query/AddressStringToBytes ${ADDRESS}`);
    expect(matched('GET', '/cosmos/auth/v1beta1/bech32/AAECAw%3D%3D')).toBe('/cosmos.auth.v1beta1.Query/AddressBytesToString AAECAw==');
    expect(matched('GET', '/cosmos/auth/v1beta1/bech32/not*base64')).toBe('/cosmos.auth.v1beta1.Query/AddressStringToBytes not*base64');
  });

  test('segments are percent-decoded one by one (an encoded "/" stays in its segment); one trailing "/" is ignored', () => {
    expect(matched('GET', '/cosmos/bank/v1beta1/denoms_metadata/ibc%2FABC')).toBe('/cosmos.bank.v1beta1.Query/DenomMetadata ibc/ABC');
    expect(matched('GET', `/cosmos/bank/v1beta1/balances/${ADDRESS}/`)).toBe(`/cosmos.bank.v1beta1.Query/AllBalances ${ADDRESS}`);
    expect(matched('GET', '/cosmos/bank/v1beta1/balances//by_denom')).toBe('not-found');
  });
});

describe('parameters', () => {
  const plans = queryParamPlans(GetTxsEventRequestSchema, []);

  function build(query: string): ReturnType<typeof create<typeof GetTxsEventRequestSchema>> {
    const init: Record<string, unknown> = {};
    applyQueryString(init, query, plans);
    return create(GetTxsEventRequestSchema, init);
  }

  test('proto and lowerCamel names at every level; repeated fields from repeated parameters', () => {
    expect([...plans.keys()]).toEqual(expect.arrayContaining(['events', 'order_by', 'orderBy', 'pagination.count_total', 'pagination.countTotal', 'page', 'limit', 'query']));
    const request = build('events=a.b%3D%27x%27&events=c.d%3D1&orderBy=ORDER_BY_DESC&pagination.countTotal=True&limit=5&page=2');
    expect(request.events).toEqual(["a.b='x'", 'c.d=1']);
    expect(request.orderBy).toBe(OrderBy.DESC);
    expect(request.pagination!.countTotal).toBe(true);
    expect(request.limit).toBe(5n);
    expect(request.page).toBe(2n);
  });

  test('enums by name or number; bools as Go ParseBool; "+" is a space', () => {
    expect(build('order_by=2').orderBy).toBe(OrderBy.DESC);
    expect(build('order_by=ORDER_BY_ASC').orderBy).toBe(OrderBy.ASC);
    for (const text of ['1', 't', 'T', 'TRUE', 'true', 'True']) expect(build(`pagination.reverse=${text}`).pagination!.reverse).toBe(true);
    for (const text of ['0', 'f', 'F', 'FALSE', 'false', 'False']) expect(build(`pagination.reverse=${text}`).pagination!.reverse).toBe(false);
    expect(build('query=a+b').query).toBe('a b');
    expect(() => build('order_by=9')).toThrow(QueryError);
    expect(() => build('pagination.reverse=yes')).toThrow('invalid value "yes" for pagination.reverse: expected true or false');
  });

  test('64-bit integers are range-checked bigints', () => {
    expect(build('limit=18446744073709551615').limit).toBe(18446744073709551615n);
    expect(() => build('limit=18446744073709551616')).toThrow('invalid value "18446744073709551616" for limit: expected an unsigned 64-bit integer');
    expect(() => build('limit=1.5')).toThrow(QueryError);
    const height = planForPath(QueryAllBalancesRequestSchema, 'pagination.offset')!;
    expect(height.parse('42')).toBe(42n);
  });

  test('bytes: standard or URL-safe base64, padding optional, a space read as "+"', () => {
    expect(Buffer.from(parseBase64('+/8=')!)).toEqual(Buffer.from([0xfb, 0xff]));
    expect(Buffer.from(parseBase64('-_8')!)).toEqual(Buffer.from([0xfb, 0xff]));
    expect(Buffer.from(parseBase64(' /8=')!)).toEqual(Buffer.from([0xfb, 0xff]));
    expect(parseBase64('a')).toBeUndefined();
    expect(parseBase64('ab$=')).toBeUndefined();
    const request = build('pagination.key=%2B%2F8%3D');
    expect(Buffer.from(request.pagination!.key)).toEqual(Buffer.from([0xfb, 0xff]));
  });

  test('path-bound fields are not query parameters; nested fields build nested messages', () => {
    const balancePlans = queryParamPlans(QueryAllBalancesRequestSchema, ['address']);
    expect(balancePlans.has('address')).toBe(false);
    expect(balancePlans.has('pagination.limit')).toBe(true);
    const init: Record<string, unknown> = {};
    setParam(init, planForPath(QueryAllBalancesRequestSchema, 'address')!, ADDRESS);
    applyQueryString(init, 'pagination.limit=3&address=ignored', balancePlans);
    const request = create(QueryAllBalancesRequestSchema, init);
    expect(request.address).toBe(ADDRESS);
    expect(request.pagination!.limit).toBe(3n);
  });
});
