import { Args } from '@oclif/core';
import { NodeCommand } from '../../cli/nodeCommand.js';
import { queryFlags } from '../../cli/nodeFlags.js';
import { paginationFlags } from '../../cli/queryCommand.js';
import type { JsonValue } from '../../node/client/query.js';

export default class QueryEvidence extends NodeCommand<typeof QueryEvidence, JsonValue> {
  static override summary = 'Query evidence by hash, or all evidence (paginated) without one';
  static override examples = ['<%= config.bin %> query evidence', '<%= config.bin %> query evidence DF0C23E8634E480F84B9D5674A7CDC9816466DEC28A3358F73260F68D28D7660'];
  static override args = { hash: Args.string({ required: false, description: 'Evidence hash (hex)' }) };
  static override flags = { ...queryFlags, ...paginationFlags };

  async execute(): Promise<JsonValue> {
    const { queryMethod } = await import('../../node/client/query.js');
    const { Query } = await import('../../gen/cosmos/evidence/v1beta1/query_pb.js');
    const { TokendError } = await import('../../util/errors.js');
    const rpc = await this.rpc();
    if (this.args.hash === undefined) {
      const { paginationRequest } = await import('../../cli/queryCommand.js');
      const pagination = paginationRequest(this.flags);
      return (await queryMethod(rpc, Query.method.allEvidence, pagination === undefined ? {} : { pagination }, this.flags.height)).value;
    }
    if (!/^([0-9a-fA-F]{2})+$/.test(this.args.hash)) throw new TokendError('INVALID_ARGUMENT', `invalid evidence hash ${this.args.hash}`, { hint: 'pass the hash in hex, e.g. from `query evidence`', exitCode: 2 });
    const evidenceHash = Buffer.from(this.args.hash, 'hex').toString('base64');
    return (await queryMethod(rpc, Query.method.evidence, { evidence_hash: evidenceHash }, this.flags.height)).value;
  }
}
