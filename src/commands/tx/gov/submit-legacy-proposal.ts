import { Args, Flags } from '@oclif/core';
import { TxCommand, txFlags } from '../../../cli/txCommand.js';
import type { TxOutcome } from '../../../node/client/broadcast.js';

export default class TxGovSubmitLegacyProposal extends TxCommand<typeof TxGovSubmitLegacyProposal> {
  static override summary = 'Submit a legacy (v1beta1 content) proposal: text, or param-change / community-pool-spend from a JSON file';
  static override description =
    'Signs /cosmos.gov.v1beta1.MsgSubmitProposal from --from. A text proposal takes --title, --description and --deposit (or --proposal ' +
    'with a JSON file holding them). "param-change <file>" reads {title, description, changes: [{subspace, key, value}], deposit} (each ' +
    'value is the parameter\'s JSON); "community-pool-spend <file>" reads {title, description, recipient, amount, deposit}.';
  static override examples = [
    '<%= config.bin %> tx gov submit-legacy-proposal --type text --title "Signal" --description "Say yes" --deposit 10000000attotoken --from alice --yes',
    '<%= config.bin %> tx gov submit-legacy-proposal param-change proposal.json --from alice --yes',
    '<%= config.bin %> tx gov submit-legacy-proposal community-pool-spend proposal.json --from alice --yes',
  ];
  static override args = {
    kind: Args.string({ required: false, description: 'param-change or community-pool-spend (omit for --type text)', options: ['param-change', 'community-pool-spend'] }),
    file: Args.string({ required: false, description: 'The proposal JSON file of param-change / community-pool-spend' }),
  };
  static override flags = {
    ...txFlags,
    type: Flags.string({ description: 'Proposal type (text)', default: 'text' }),
    title: Flags.string({ description: 'Proposal title' }),
    description: Flags.string({ description: 'Proposal description' }),
    deposit: Flags.string({ description: 'Initial deposit, e.g. 10000000attotoken' }),
    proposal: Flags.string({ description: 'JSON file with title, description, type and deposit (instead of the flags)' }),
  };

  async execute(): Promise<TxOutcome> {
    const { create } = await import('@bufbuild/protobuf');
    const { readFileSync } = await import('node:fs');
    const { MsgSubmitProposalSchema } = await import('../../../gen/cosmos/gov/v1beta1/tx_pb.js');
    const { TextProposalSchema } = await import('../../../gen/cosmos/gov/v1beta1/gov_pb.js');
    const { ParameterChangeProposalSchema } = await import('../../../gen/cosmos/params/v1beta1/params_pb.js');
    const { CommunityPoolSpendProposalSchema } = await import('../../../gen/cosmos/distribution/v1beta1/distribution_pb.js');
    const { anyPack } = await import('../../../node/codec/any.js');
    const { packMessage } = await import('../../../node/client/tx.js');
    const { coinsToProto, parseCoins } = await import('../../../node/modules/shared/coins.js');
    const { parseAccAddress } = await import('../../../node/modules/shared/address.js');
    const { toAccountAddress } = await import('../../../keyring/address.js');
    const { TokendError } = await import('../../../util/errors.js');

    const bad = (message: string, hint?: string): Error => new TokendError('INVALID_ARGUMENT', message, { hint, exitCode: 2 });
    const readJson = (path: string): Record<string, unknown> => {
      let json: unknown;
      try {
        json = JSON.parse(readFileSync(path, 'utf8'));
      } catch (err) {
        throw bad(`cannot read proposal file ${path}: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (json === null || typeof json !== 'object' || Array.isArray(json)) throw bad(`proposal file ${path} must hold a JSON object`);
      return json as Record<string, unknown>;
    };
    const text = (json: Record<string, unknown>, key: string): string => (typeof json[key] === 'string' ? (json[key] as string) : '');
    const coins = (value: string, what: string) => {
      try {
        return coinsToProto(parseCoins(value, { allowEmpty: true }));
      } catch (err) {
        throw bad(`invalid ${what} ${JSON.stringify(value)}: ${err instanceof Error ? err.message : String(err)}`, 'coins look like 10000000attotoken');
      }
    };

    let content;
    let deposit: string;
    const { kind, file } = this.args;
    if (kind === undefined) {
      const json = this.flags.proposal === undefined ? {} : readJson(this.flags.proposal);
      const type = (this.flags.proposal === undefined ? this.flags.type : text(json, 'type') || 'text').toLowerCase();
      if (type !== 'text') throw bad(`unsupported proposal type ${JSON.stringify(type)}`, 'use --type text, or the param-change / community-pool-spend forms (software upgrades: the upgrade module)');
      const title = this.flags.proposal === undefined ? this.flags.title : text(json, 'title');
      const description = this.flags.proposal === undefined ? this.flags.description : text(json, 'description');
      if (!title) throw bad('a proposal needs a title', 'pass --title');
      if (!description) throw bad('a proposal needs a description', 'pass --description');
      deposit = (this.flags.proposal === undefined ? this.flags.deposit : text(json, 'deposit')) ?? '';
      content = anyPack(TextProposalSchema, create(TextProposalSchema, { title, description }));
    } else {
      if (file === undefined) throw bad(`${kind} needs a proposal JSON file`, `tokend tx gov submit-legacy-proposal ${kind} proposal.json --from KEY`);
      const json = readJson(file);
      deposit = text(json, 'deposit');
      if (kind === 'param-change') {
        if (!Array.isArray(json.changes) || json.changes.length === 0) throw bad(`${file}: "changes" must be a non-empty list of {subspace, key, value}`);
        const changes = json.changes.map((change: unknown, i: number) => {
          const c = change as Record<string, unknown>;
          if (typeof c?.subspace !== 'string' || typeof c.key !== 'string' || c.value === undefined) throw bad(`${file}: change ${i} must have subspace, key and value`);
          return { subspace: c.subspace, key: c.key, value: JSON.stringify(c.value) };
        });
        content = anyPack(ParameterChangeProposalSchema, create(ParameterChangeProposalSchema, { title: text(json, 'title'), description: text(json, 'description'), changes }));
      } else {
        const recipient = text(json, 'recipient');
        if (!parseAccAddress(recipient).ok) throw bad(`${file}: invalid recipient ${JSON.stringify(recipient)}`);
        content = anyPack(CommunityPoolSpendProposalSchema, create(CommunityPoolSpendProposalSchema, { title: text(json, 'title'), description: text(json, 'description'), recipient, amount: coins(text(json, 'amount'), 'amount') }));
      }
    }
    const key = await this.signingKey();
    const msg = create(MsgSubmitProposalSchema, { content, initialDeposit: coins(deposit, 'deposit'), proposer: toAccountAddress(key.address) });
    return this.submit(key, [packMessage(MsgSubmitProposalSchema, msg)]);
  }
}
