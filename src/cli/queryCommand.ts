/**
 * Query commands derived from protobuf Query methods: a command names the method, which positional
 * arguments fill which request fields, and whether it is paginated. The request goes to the node
 * as `abci_query /<pkg.Service>/<Method>`; the answer prints as the REST gateway would print it.
 */
import { Args, Flags, type Command } from '@oclif/core';
import type { DescMethod } from '@bufbuild/protobuf';
import { NodeCommand } from './nodeCommand.js';
import { queryFlags } from './nodeFlags.js';
import { TokendError } from '../util/errors.js';
import type { JsonObject, JsonValue } from '../node/client/query.js';

export const paginationFlags = {
  'page-key': Flags.string({ description: 'pagination.key from a previous next_key (base64)' }),
  offset: Flags.integer({ description: 'Pagination offset (use --page-key when you can; not both)', min: 0 }),
  limit: Flags.integer({ description: 'Page size (default 100)', min: 1 }),
  'count-total': Flags.boolean({ description: 'Return the total count (with --offset paging)' }),
  reverse: Flags.boolean({ description: 'Results in descending order' }),
  page: Flags.integer({ description: 'Page number, from 1 (sets --offset = (page-1)*limit)', min: 1 }),
};

export interface PaginationFlagValues {
  'page-key'?: string;
  offset?: number;
  limit?: number;
  'count-total'?: boolean;
  reverse?: boolean;
  page?: number;
}

/** The request's `pagination` object from the pagination flags (gateway JSON). */
export function paginationRequest(flags: PaginationFlagValues): JsonObject | undefined {
  if (flags['page-key'] !== undefined && (flags.offset !== undefined || flags.page !== undefined)) {
    throw new TokendError('INVALID_ARGUMENT', 'invalid request, either offset or key is expected, got both', { hint: 'use --page-key or --offset/--page, not both', exitCode: 2 });
  }
  const pagination: JsonObject = {};
  const limit = flags.limit ?? (flags.page !== undefined ? 100 : undefined);
  if (flags['page-key'] !== undefined) pagination.key = flags['page-key'];
  if (flags.page !== undefined) pagination.offset = String((flags.page - 1) * (limit ?? 100));
  else if (flags.offset !== undefined) pagination.offset = String(flags.offset);
  if (limit !== undefined) pagination.limit = String(limit);
  if (flags['count-total']) pagination.count_total = true;
  if (flags.reverse) pagination.reverse = true;
  return Object.keys(pagination).length > 0 ? pagination : undefined;
}

export interface QuerySpec {
  method: DescMethod;
  summary: string;
  /** Positional arguments in order: request field (snake_case) and its description. */
  args?: { field: string; description: string; required?: boolean }[];
  paginated?: boolean;
  examples?: string[];
}

/** Build an oclif command class for one Query method. */
export function defineQueryCommand(spec: QuerySpec): typeof Command {
  const args: Record<string, ReturnType<typeof Args.string>> = {};
  for (const arg of spec.args ?? []) args[arg.field] = Args.string({ description: arg.description, required: arg.required ?? true });
  class QueryMethodCommand extends NodeCommand<typeof QueryMethodCommand, JsonValue> {
    static override summary = spec.summary;
    static override description = `${spec.summary}.\nCalls ${spec.method.parent.typeName}/${spec.method.name} on the node (--node) through abci_query.`;
    static override examples = spec.examples ?? [];
    static override args = args;
    static override flags = { ...queryFlags, ...(spec.paginated ? paginationFlags : {}) };

    async execute(): Promise<JsonValue> {
      const request: JsonObject = {};
      const argValues = this.args as Record<string, string | undefined>;
      for (const arg of spec.args ?? []) if (argValues[arg.field] !== undefined) request[arg.field] = argValues[arg.field]!;
      if (spec.paginated) {
        const pagination = paginationRequest(this.flags as PaginationFlagValues);
        if (pagination) request.pagination = pagination;
      }
      const { queryMethod } = await import('../node/client/query.js');
      const result = await queryMethod(await this.rpc(), spec.method, request, (this.flags as { height?: number }).height);
      return result.value;
    }
  }
  return QueryMethodCommand;
}
