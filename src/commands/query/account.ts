import { Args } from '@oclif/core';
import { NodeCommand } from '../../cli/nodeCommand.js';
import { queryFlags } from '../../cli/nodeFlags.js';
import type { JsonObject, JsonValue } from '../../node/client/query.js';

/**
 * Prints the account flat — @type, address, pub_key, account_number, sequence (+ code_hash for an
 * EthAccount) — as the spec describes; the REST gateway keeps the nested protobuf JSON.
 */
export function flattenAccount(account: JsonObject): JsonObject {
  const base = (account.base_account ?? account) as JsonObject;
  const out: JsonObject = {
    '@type': account['@type'] ?? null,
    address: base.address ?? null,
    pub_key: base.pub_key ?? null,
    account_number: base.account_number ?? '0',
    sequence: base.sequence ?? '0',
  };
  if (account.code_hash !== undefined) out.code_hash = account.code_hash;
  if (account.name !== undefined) out.name = account.name;
  if (account.permissions !== undefined) out.permissions = account.permissions;
  return out;
}

export default class QueryAccount extends NodeCommand<typeof QueryAccount, JsonValue> {
  static override summary = 'Query an account: type, account number, public key and sequence';
  static override examples = ['<%= config.bin %> query account token1… -o json'];
  static override args = { address: Args.string({ required: true, description: 'bech32 or hex account address' }) };
  static override flags = { ...queryFlags };

  async execute(): Promise<JsonValue> {
    const { queryMethod } = await import('../../node/client/query.js');
    const { Query } = await import('../../gen/cosmos/auth/v1beta1/query_pb.js');
    const { parseAddress, toAccountAddress } = await import('../../keyring/address.js');
    const address = toAccountAddress(parseAddress(this.args.address));
    const result = await queryMethod(await this.rpc(), Query.method.account, { address }, this.flags.height);
    return flattenAccount(result.value.account as JsonObject);
  }
}
