/**
 * The REST route table, read from the `google.api.http` options of the generated services.
 *
 * Each rule, and each of its `additional_bindings`, becomes one route. The gateway matches the
 * path template, fills the request message from path variables, the query string (GET) or the
 * JSON body (`body` "*"), calls the method and prints the response with `toGatewayJson`.
 */
import type { DescMethod, DescService } from '@bufbuild/protobuf';
import { getOption, hasOption } from '@bufbuild/protobuf';
import { http } from '../../gen/google/api/annotations_pb.js';
import type { HttpRule } from '../../gen/google/api/http_pb.js';
import { PROTO_FILES } from './files.js';

export type HttpVerb = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

export interface HttpRoute {
  method: HttpVerb;
  /** Path template, e.g. "/cosmos/bank/v1beta1/balances/{address}". */
  pattern: string;
  /** "" (no body), "*" (every field not bound by the path) or a top-level field name. */
  body: string;
  /** Full service name, e.g. "cosmos.bank.v1beta1.Query". */
  service: string;
  /** Method name, e.g. "AllBalances". */
  rpc: string;
  /** The method, for its input and output schemas. */
  descriptor: DescMethod;
  /** True for an entry of `additional_bindings` (e.g. the /sdk/ alias). */
  additional: boolean;
}

const VERB_OF_CASE: Record<string, HttpVerb> = {
  get: 'GET',
  post: 'POST',
  put: 'PUT',
  delete: 'DELETE',
  patch: 'PATCH',
};

/** Every service of every generated file. */
export function allServices(): DescService[] {
  return PROTO_FILES.flatMap((file) => file.services);
}

/**
 * One route per HTTP binding of every method of the given services (all services by default),
 * in file, method and binding order. Rules with a `custom` verb are skipped (none exist).
 */
export function httpRoutes(services: Iterable<DescService> = allServices()): HttpRoute[] {
  const routes: HttpRoute[] = [];
  for (const service of services) {
    for (const method of service.methods) {
      if (!hasOption(method, http)) continue;
      const rule = getOption(method, http);
      pushRoute(routes, service, method, rule, false);
      for (const binding of rule.additionalBindings) pushRoute(routes, service, method, binding, true);
    }
  }
  return routes;
}

function pushRoute(routes: HttpRoute[], service: DescService, method: DescMethod, rule: HttpRule, additional: boolean): void {
  const { pattern } = rule;
  if (pattern.case === undefined || pattern.case === 'custom') return;
  routes.push({
    method: VERB_OF_CASE[pattern.case],
    pattern: pattern.value,
    body: rule.body,
    service: service.typeName,
    rpc: method.name,
    descriptor: method,
    additional,
  });
}

/**
 * Field paths bound by a path template's variables, in order:
 * "/a/{address}/b/{pagination.key=*}" -> ["address", "pagination.key"].
 */
export function pathTemplateFields(pattern: string): string[] {
  return [...pattern.matchAll(/\{([^}=]+)(?:=[^}]*)?\}/g)].map((match) => match[1]);
}
