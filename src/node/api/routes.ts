/**
 * The gateway's route table, compiled once from the `google.api.http` rules of the served
 * methods (codec `httpRoutes()`: every rule and every additional binding, so both the upstream
 * `/cosmos/...` paths and the spec's `/sdk/...` paths).
 *
 * Matching walks a trie of path segments. At each segment a literal beats a variable, which beats
 * a `{x=**}` tail (so `/balances/{address}/by_denom` wins over `/balances/{address}` for that
 * path, and `/validatorsets/latest` over `/validatorsets/{height}`), backtracking when a branch
 * dead-ends. Segments are percent-decoded one by one, so an encoded "/" (%2F) stays inside its
 * segment. One trailing "/" is ignored.
 *
 * Identical templates for the same verb (only `/auth/v1beta1/bech32/{address_bytes}` and
 * `/auth/v1beta1/bech32/{address_string}`): the first candidate whose path variables parse wins,
 * where a bytes variable accepts only base64 that is not a bech32 string, and candidates with
 * bytes variables are tried first. So `/bech32/token1…` → AddressStringToBytes and
 * `/bech32/<base64>` → AddressBytesToString. (Upstream grpc-gateway lets the later registration
 * win, which makes AddressBytesToString unreachable over REST.)
 */
import type { DescMessage } from '@bufbuild/protobuf';
import { decodeBech32 } from '../../keyring/address.js';
import { httpRoutes, pathTemplateFields, type HttpRoute, type HttpVerb } from '../codec/index.js';
import type { QueryEntry, QueryRouter } from '../services/types.js';
import { parseBase64, planForPath, queryParamPlans, type ParamPlan } from './params.js';

export interface CompiledRoute {
  readonly verb: HttpVerb;
  readonly pattern: string;
  /** The served method, or undefined when the router does not serve it (answered 501). */
  readonly entry: QueryEntry | undefined;
  /** "/pkg.Service/Method". */
  readonly path: string;
  readonly input: DescMessage;
  readonly output: DescMessage;
  /** Path-variable plans in template order. */
  readonly pathParams: readonly ParamPlan[];
  /** Query-parameter plans (GET); empty for body routes. */
  readonly queryParams: ReadonlyMap<string, ParamPlan>;
  /** "" or "*" (the whole message from the JSON body). */
  readonly body: string;
  readonly httpRoute: HttpRoute;
}

type Segment = { kind: 'literal'; text: string } | { kind: 'var' } | { kind: 'rest' };

class TrieNode {
  readonly literals = new Map<string, TrieNode>();
  variable: TrieNode | undefined;
  rest: TrieNode | undefined;
  /** Routes ending here, by verb, in precedence order. */
  readonly routes = new Map<HttpVerb, CompiledRoute[]>();
}

export type MatchResult =
  | { kind: 'found'; route: CompiledRoute; values: string[] }
  | { kind: 'method-not-allowed' }
  | { kind: 'not-found' };

function parseTemplate(pattern: string): Segment[] {
  const parts = pattern.split('/').filter((part, i) => !(i === 0 && part === ''));
  return parts.map((part): Segment => {
    const m = /^\{([^}=]+)(?:=([^}]*))?\}$/.exec(part);
    if (m === null) return { kind: 'literal', text: part };
    return m[2] === '**' ? { kind: 'rest' } : { kind: 'var' };
  });
}

function isBech32(text: string): boolean {
  try {
    decodeBech32(text);
    return true;
  } catch {
    return false;
  }
}

/** Whether the path values fit the route's variables (see the module comment). */
function acceptsValues(route: CompiledRoute, values: readonly string[]): boolean {
  for (let i = 0; i < route.pathParams.length; i++) {
    const plan = route.pathParams[i]!;
    if (!plan.isBytes) continue;
    const value = values[i] ?? '';
    if (parseBase64(value) === undefined || isBech32(value)) return false;
  }
  return true;
}

export class RouteTable {
  private readonly root = new TrieNode();
  readonly routes: readonly CompiledRoute[];

  constructor(routes: readonly CompiledRoute[]) {
    this.routes = routes;
    for (const route of routes) this.insert(route);
    this.orderCandidates(this.root);
  }

  /** A table of every http rule of the services the router serves. */
  static fromRouter(router: QueryRouter): RouteTable {
    const services = new Map<string, QueryEntry['method']['parent']>();
    for (const entry of router.entries()) services.set(entry.method.parent.typeName, entry.method.parent);
    return new RouteTable(httpRoutes(services.values()).map((route) => compileRoute(route, router.lookup(`/${route.service}/${route.rpc}`))));
  }

  private insert(route: CompiledRoute): void {
    let node = this.root;
    for (const segment of parseTemplate(route.pattern)) {
      if (segment.kind === 'literal') {
        let next = node.literals.get(segment.text);
        if (next === undefined) {
          next = new TrieNode();
          node.literals.set(segment.text, next);
        }
        node = next;
      } else if (segment.kind === 'var') {
        node.variable ??= new TrieNode();
        node = node.variable;
      } else {
        node.rest ??= new TrieNode();
        node = node.rest;
      }
    }
    const list = node.routes.get(route.verb) ?? [];
    // grpc-gateway tries later registrations first.
    list.unshift(route);
    node.routes.set(route.verb, list);
  }

  private orderCandidates(node: TrieNode): void {
    for (const [verb, list] of node.routes) {
      if (list.length > 1) {
        const picky = list.filter((r) => r.pathParams.some((p) => p.isBytes));
        node.routes.set(verb, [...picky, ...list.filter((r) => !picky.includes(r))]);
      }
    }
    for (const child of node.literals.values()) this.orderCandidates(child);
    if (node.variable !== undefined) this.orderCandidates(node.variable);
    if (node.rest !== undefined) this.orderCandidates(node.rest);
  }

  /** Matches a path (without the query string) for a verb. */
  match(verb: string, pathname: string): MatchResult {
    let path = pathname;
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    const segments = path.split('/');
    // segments[0] is "" (the leading "/").
    const values: string[] = [];
    let pathMatched = false;
    const walk = (node: TrieNode, index: number): CompiledRoute | undefined => {
      if (index === segments.length) {
        if (node.routes.size === 0) return undefined;
        pathMatched = true;
        const candidates = node.routes.get(verb as HttpVerb);
        if (candidates === undefined) return undefined;
        if (candidates.length === 1) return candidates[0];
        const decoded = values.map(decodeSegment);
        return candidates.find((route) => acceptsValues(route, decoded)) ?? candidates[0];
      }
      const segment = segments[index]!;
      const literal = node.literals.get(segment);
      if (literal !== undefined) {
        const found = walk(literal, index + 1);
        if (found !== undefined) return found;
      }
      if (node.variable !== undefined && segment !== '') {
        values.push(segment);
        const found = walk(node.variable, index + 1);
        if (found !== undefined) return found;
        values.pop();
      }
      if (node.rest !== undefined) {
        values.push(segments.slice(index).join('/'));
        const found = walk(node.rest, segments.length);
        if (found !== undefined) return found;
        values.pop();
      }
      return undefined;
    };
    if (segments[0] !== '') return { kind: 'not-found' };
    const route = walk(this.root, 1);
    if (route !== undefined) return { kind: 'found', route, values: values.map(decodeSegment) };
    return pathMatched ? { kind: 'method-not-allowed' } : { kind: 'not-found' };
  }
}

function decodeSegment(segment: string): string {
  if (segment.indexOf('%') < 0) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Compiles one http rule against the method's schemas. */
export function compileRoute(route: HttpRoute, entry: QueryEntry | undefined): CompiledRoute {
  const input = route.descriptor.input;
  const fieldPaths = pathTemplateFields(route.pattern);
  const pathParams = fieldPaths.map((fieldPath) => {
    const plan = planForPath(input, fieldPath);
    if (plan === undefined) throw new Error(`route ${route.pattern}: {${fieldPath}} names no scalar field of ${input.typeName}`);
    return plan;
  });
  return {
    verb: route.method,
    pattern: route.pattern,
    entry,
    path: `/${route.service}/${route.rpc}`,
    input,
    output: route.descriptor.output,
    pathParams,
    queryParams: route.body === '' ? queryParamPlans(input, pathParams.map((p) => p.name)) : new Map(),
    body: route.body,
    httpRoute: route,
  };
}
