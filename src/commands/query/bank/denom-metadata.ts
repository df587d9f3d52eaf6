import { Args, Flags } from '@oclif/core';
import { NodeCommand } from '../../../cli/nodeCommand.js';
import { queryFlags } from '../../../cli/nodeFlags.js';
import { paginationFlags, paginationRequest } from '../../../cli/queryCommand.js';
import type { JsonObject, JsonValue } from '../../../node/client/query.js';

export default class QueryBankDenomMetadata extends NodeCommand<typeof QueryBankDenomMetadata, JsonValue> {
  static override summary = 'Query the metadata of one denom, or of every denom (paginated)';
  static override examples = ['<%= config.bin %> query bank denom-metadata', '<%= config.bin %> query bank denom-metadata attotoken', '<%= config.bin %> query bank denom-metadata --denom attotoken'];
  static override args = { denom: Args.string({ description: 'Only this denom' }) };
  static override flags = { ...queryFlags, ...paginationFlags, denom: Flags.string({ description: 'Only this denom (same as the argument)' }) };

  async execute(): Promise<JsonValue> {
    const { queryMethod } = await import('../../../node/client/query.js');
    const { Query } = await import('../../../gen/cosmos/bank/v1beta1/query_pb.js');
    const rpc = await this.rpc();
    const denom = this.args.denom ?? this.flags.denom;
    if (denom !== undefined) return (await queryMethod(rpc, Query.method.denomMetadata, { denom }, this.flags.height)).value;
    const request: JsonObject = {};
    const pagination = paginationRequest(this.flags);
    if (pagination) request.pagination = pagination;
    return (await queryMethod(rpc, Query.method.denomsMetadata, request, this.flags.height)).value;
  }
}
