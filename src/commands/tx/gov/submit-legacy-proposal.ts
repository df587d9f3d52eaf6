import { Args, Flags } from '@oclif/core';
import { TxCommand, txFlags } from '../../../cli/txCommand.js';
import type { TxOutcome } from '../../../node/client/broadcast.js';

/** The converter's (aiozrc20) proposal contents, by command word: the JSON fields each reads besides title and description. */
const CONVERTER_KINDS = ['register-coin', 'register-aiozrc20', 'toggle-token-conversion'];

export default class TxGovSubmitLegacyProposal extends TxCommand<typeof TxGovSubmitLegacyProposal> {
  static override summary = 'Submit a legacy (v1beta1 content) proposal: text, or param-change / community-pool-spend / a converter proposal from a JSON file';
  static override description =
    'Signs /cosmos.gov.v1beta1.MsgSubmitProposal from --from. A text proposal takes --title, --description and --deposit (or --proposal ' +
    'with a JSON file holding them). "param-change <file>" reads {title, description, changes: [{subspace, key, value}], deposit} (each ' +
    'value is the parameter\'s JSON); "community-pool-spend <file>" reads {title, description, recipient, amount, deposit}. The coin ⇄ ERC-20 ' +
    'converter\'s: "register-coin <file>" reads {title, description, metadata (bank metadata JSON), deposit}; "register-aiozrc20 <file>" ' +
    '{title, description, aiozrc20_address, deposit}; "toggle-token-conversion <file>" {title, description, token, deposit}. The fee-routing ' +
    'records\' (bech32ibc): "update-hrp-ibc-record <hrp> <channel>" with --title, --description, --deposit and --ics-to-height-offset and/or ' +
    '--ics-to-timeout-offset (an empty channel "" removes the prefix\'s record).';
  static override examples = [
    '<%= config.bin %> tx gov submit-legacy-proposal --type text --title "Signal" --description "Say yes" --deposit 10000000attotoken --from alice --yes',
    '<%= config.bin %> tx gov submit-legacy-proposal param-change proposal.json --from alice --yes',
    '<%= config.bin %> tx gov submit-legacy-proposal community-pool-spend proposal.json --from alice --yes',
    '<%= config.bin %> tx gov submit-legacy-proposal register-coin proposal.json --from alice --yes',
    '<%= config.bin %> tx gov submit-legacy-proposal update-hrp-ibc-record cosmos channel-0 --ics-to-height-offset 1000 --ics-to-timeout-offset 10m --title "Route cosmos" --description "Via channel-0" --deposit 10000000attotoken --from alice --yes',
  ];
  static override args = {
    kind: Args.string({
      required: false,
      description: 'param-change, community-pool-spend, register-coin, register-aiozrc20, toggle-token-conversion or update-hrp-ibc-record (omit for --type text)',
      options: ['param-change', 'community-pool-spend', ...CONVERTER_KINDS, 'update-hrp-ibc-record'],
    }),
    file: Args.string({ required: false, description: 'The proposal JSON file (update-hrp-ibc-record: the bech32 prefix)' }),
    channel: Args.string({ required: false, description: 'update-hrp-ibc-record: the transfer channel ("" removes the record)' }),
  };
  static override flags = {
    ...txFlags,
    type: Flags.string({ description: 'Proposal type (text)', default: 'text' }),
    title: Flags.string({ description: 'Proposal title' }),
    description: Flags.string({ description: 'Proposal description' }),
    deposit: Flags.string({ description: 'Initial deposit, e.g. 10000000attotoken' }),
    proposal: Flags.string({ description: 'JSON file with title, description, type and deposit (instead of the flags)' }),
    'ics-to-height-offset': Flags.string({ description: 'update-hrp-ibc-record: blocks after which packets routed by the record time out' }),
    'ics-to-timeout-offset': Flags.string({ description: 'update-hrp-ibc-record: time after which packets routed by the record time out (Go duration, e.g. 10m)' }),
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
    if (kind === 'update-hrp-ibc-record') {
      content = await this.hrpIbcRecordContent(bad);
      deposit = this.flags.deposit ?? '';
    } else if (kind === undefined) {
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
      } else if (CONVERTER_KINDS.includes(kind)) {
        const converter = await import('../../../gen/aioz/aiozrc20/v1/aiozrc20_pb.js');
        const { fromGatewayJson } = await import('../../../node/codec/index.js');
        const schema = kind === 'register-coin' ? converter.RegisterCoinProposalSchema : kind === 'register-aiozrc20' ? converter.RegisterAIOZRC20ProposalSchema : converter.ToggleTokenPairConversionProposalSchema;
        const field = kind === 'register-coin' ? 'metadata' : kind === 'register-aiozrc20' ? 'aiozrc20_address' : 'token';
        if (json[field] === undefined) throw bad(`${file}: "${field}" is missing`);
        let proposal;
        try {
          proposal = fromGatewayJson(schema, { title: text(json, 'title'), description: text(json, 'description'), [field]: json[field] } as never);
        } catch (err) {
          throw bad(`${file}: invalid ${kind} proposal: ${err instanceof Error ? err.message : String(err)}`);
        }
        content = anyPack(schema, proposal as never);
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

  /** bech32ibc's UpdateHrpIbcChannelProposal from `<hrp> <channel>` and the flags, checked as its ValidateBasic does. */
  private async hrpIbcRecordContent(bad: (message: string, hint?: string) => Error) {
    const { create } = await import('@bufbuild/protobuf');
    const { UpdateHrpIbcChannelProposalSchema } = await import('../../../gen/bech32ibc/bech32ibc/v1beta1/gov_pb.js');
    const { hrpProblem } = await import('../../../node/modules/bech32ibc/errors.js');
    const { channelIdentifierError } = await import('../../../node/modules/ibc/core/host/identifiers.js');
    const { durationFields, parseGoDurationNanos } = await import('../../../util/goDuration.js');
    const { anyPack } = await import('../../../node/codec/any.js');
    const usage = 'tokend tx gov submit-legacy-proposal update-hrp-ibc-record <hrp> <channel> --ics-to-height-offset N --title T --description D --deposit C --from KEY';
    const hrp = this.args.file;
    const channel = this.args.channel;
    if (hrp === undefined || channel === undefined) throw bad('update-hrp-ibc-record needs a bech32 prefix and a channel', usage);
    const problem = hrpProblem(hrp);
    if (problem !== undefined) throw bad(`invalid bech32 prefix ${JSON.stringify(hrp)}: ${problem}`);
    if (channel !== '' && channelIdentifierError(channel) !== undefined) throw bad(`invalid channel identifier ${JSON.stringify(channel)}`, 'channels look like channel-0; "" removes the record');
    const heightText = this.flags['ics-to-height-offset'] ?? '0';
    if (!/^(0|[1-9][0-9]*)$/.test(heightText) || BigInt(heightText) >= 1n << 64n) throw bad(`invalid --ics-to-height-offset ${JSON.stringify(heightText)}: expected a block count`);
    let timeoutNanos = 0n;
    const timeoutText = this.flags['ics-to-timeout-offset'];
    if (timeoutText !== undefined) {
      const parsed = parseGoDurationNanos(timeoutText.trim());
      if (parsed === undefined) throw bad(`invalid --ics-to-timeout-offset ${JSON.stringify(timeoutText)}: expected a Go duration`, 'e.g. 10m, 1h30m, 90s');
      if (parsed < 0n) throw bad(`invalid --ics-to-timeout-offset ${JSON.stringify(timeoutText)}: the offset cannot be negative`);
      timeoutNanos = parsed;
    }
    if (BigInt(heightText) === 0n && timeoutNanos === 0n) throw bad('at least one of offset height or offset timeout should be set', 'pass --ics-to-height-offset and/or --ics-to-timeout-offset');
    const title = this.flags.title;
    const description = this.flags.description;
    if (!title) throw bad('a proposal needs a title', 'pass --title');
    if (!description) throw bad('a proposal needs a description', 'pass --description');
    const proposal = create(UpdateHrpIbcChannelProposalSchema, {
      title,
      description,
      hrp,
      sourceChannel: channel,
      icsToHeightOffset: BigInt(heightText),
      icsToTimeOffset: durationFields(timeoutNanos),
    });
    return anyPack(UpdateHrpIbcChannelProposalSchema, proposal);
  }
}
