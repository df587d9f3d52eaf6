import { Args } from '@oclif/core';
import { NodeCommand } from '../../cli/nodeCommand.js';
import { nodeFlag } from '../../cli/nodeFlags.js';
import { TokendError } from '../../util/errors.js';

interface ValidatorOut {
  address: string;
  pub_key: { '@type': string; key: string };
  proposer_priority: string;
  voting_power: string;
}

export default class QueryValidatorSet extends NodeCommand<typeof QueryValidatorSet, { block_height: string; validators: ValidatorOut[]; total: string }> {
  static override summary = 'Get the full consensus validator set at a height (default latest)';
  static override examples = ['<%= config.bin %> query tendermint-validator-set', '<%= config.bin %> query tendermint-validator-set 10 -o json'];
  static override args = { height: Args.string({ description: 'Height (default latest)' }) };
  static override flags = { ...nodeFlag };

  async execute(): Promise<{ block_height: string; validators: ValidatorOut[]; total: string }> {
    const raw = this.args.height;
    if (raw !== undefined && !/^[1-9]\d*$/.test(raw)) throw new TokendError('INVALID_ARGUMENT', `invalid height "${raw}"`, { hint: 'give a positive integer', exitCode: 2 });
    const rpc = await this.rpc();
    const { encodeBech32 } = await import('../../keyring/address.js');
    const { CONSENSUS_PREFIX } = await import('../../keyring/prefixes.js');
    const validators: ValidatorOut[] = [];
    let blockHeight = '';
    let total = 0;
    for (let page = 1; ; page++) {
      const result = await rpc.validators({ height: raw === undefined ? undefined : Number(raw), page, perPage: 100 });
      blockHeight = result.block_height;
      total = Number(result.total);
      for (const v of result.validators) {
        validators.push({
          address: encodeBech32(CONSENSUS_PREFIX, Buffer.from(v.address, 'hex')),
          pub_key: { '@type': v.pub_key.type === 'tendermint/PubKeySecp256k1' ? '/cosmos.crypto.secp256k1.PubKey' : '/cosmos.crypto.ed25519.PubKey', key: v.pub_key.value },
          proposer_priority: v.proposer_priority,
          voting_power: v.voting_power,
        });
      }
      if (validators.length >= total || result.validators.length === 0) break;
    }
    return { block_height: blockHeight, validators, total: String(total) };
  }
}
