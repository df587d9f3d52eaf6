/**
 * The `tx group …` commands with the SDK's argument forms (x/group/client/cli/tx.go): the signer
 * is the first argument (admin, voter, member — a key name or address, as the SDK sets --from
 * from it), members, decision policies and proposals come from JSON files in the SDK's shapes:
 *
 *   members.json          {"members": [{"address": "token1…", "weight": "1", "metadata": "…"}]}
 *   decision-policy.json  {"@type": "/cosmos.group.v1.ThresholdDecisionPolicy", "threshold": "2",
 *                          "windows": {"voting_period": "120h", "min_execution_period": "0s"}}
 *   proposal.json         {"group_policy_address": "token1…", "proposers": ["token1…"],
 *                          "messages": [{"@type": "/cosmos.bank.v1beta1.MsgSend", …}],
 *                          "metadata": "", "title": "", "summary": ""}
 *
 * Durations take Go's form ("120h", "1h30m", "0s") or protobuf JSON's ("86400s"). Every argument
 * and file is checked before the keyring is opened: bad input is one line, exit 2, nothing sent.
 */
import { Args, Flags, type Command } from '@oclif/core';
import type { JsonObject, JsonValue } from '@bufbuild/protobuf';
import { readFile } from 'node:fs/promises';
import { TxCommand, txFlags } from './txCommand.js';
import { EXIT_USAGE } from './output.js';
import { durationJson, parseGoDurationNanos } from '../util/goDuration.js';
import { TokendError } from '../util/errors.js';
import type { TxOutcome } from '../node/client/broadcast.js';

function usage(message: string, hint?: string): TokendError {
  return new TokendError('INVALID_ARGUMENT', message, { hint, exitCode: EXIT_USAGE });
}

/** A JSON file's contents; one line naming the file when it cannot be read or parsed. */
export async function readJsonFile(path: string, what: string): Promise<JsonValue> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw usage(`cannot read ${what} file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  try {
    return JSON.parse(text) as JsonValue;
  } catch (err) {
    throw usage(`${what} file ${path} is not JSON: ${(err as Error).message}`);
  }
}

/** "120h", "1h30m", "0s", "1.5h" (Go's time.ParseDuration, not negative) → protobuf JSON "5400s". */
export function goDurationToJson(text: string, label: string): string {
  const trimmed = text.trim();
  const nanos = /^[-+]/.test(trimmed) ? undefined : parseGoDurationNanos(trimmed);
  if (nanos === undefined) throw usage(`invalid ${label} "${text}": expected a duration such as 120h, 30m or 86400s`);
  return durationJson(nanos);
}

/** A decision policy file as gateway JSON (an Any with "@type"), durations normalised. */
export async function decisionPolicyJson(path: string): Promise<JsonObject> {
  const json = await readJsonFile(path, 'decision policy');
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw usage(`decision policy file ${path}: expected a JSON object with "@type"`);
  const type = json['@type'];
  if (type !== '/cosmos.group.v1.ThresholdDecisionPolicy' && type !== '/cosmos.group.v1.PercentageDecisionPolicy') {
    throw usage(`decision policy file ${path}: "@type" must be /cosmos.group.v1.ThresholdDecisionPolicy or /cosmos.group.v1.PercentageDecisionPolicy, got ${JSON.stringify(type ?? null)}`);
  }
  const windows = json.windows;
  if (windows === null || typeof windows !== 'object' || Array.isArray(windows)) throw usage(`decision policy file ${path}: "windows" with "voting_period" is required`);
  const normalised: JsonObject = {};
  for (const [key, value] of Object.entries(windows)) {
    normalised[key] = (key === 'voting_period' || key === 'min_execution_period') && typeof value === 'string' ? goDurationToJson(value, `windows.${key}`) : value;
  }
  return { ...json, windows: normalised };
}

/** The "members" list of a members file. */
export async function membersJson(path: string): Promise<JsonValue[]> {
  const json = await readJsonFile(path, 'members');
  const members = json !== null && typeof json === 'object' && !Array.isArray(json) ? json.members : undefined;
  if (!Array.isArray(members)) throw usage(`members file ${path}: expected {"members": [{"address": …, "weight": …, "metadata": …}]}`);
  return members;
}

/** A proposal id or group id argument. */
export function idArg(text: string, label: string): string {
  if (!/^[0-9]+$/.test(text) || BigInt(text) === 0n || BigInt(text) >= 2n ** 64n) throw usage(`invalid ${label} "${text}": expected a positive integer`);
  return text;
}

/** --exec: "try" or nothing. */
export function execFlag(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (value !== 'try') throw usage(`invalid --exec "${value}": the only mode is "try"`);
  return 'EXEC_TRY';
}

const VOTE_OPTIONS: Record<string, string> = {
  yes: 'VOTE_OPTION_YES',
  abstain: 'VOTE_OPTION_ABSTAIN',
  no: 'VOTE_OPTION_NO',
  no_with_veto: 'VOTE_OPTION_NO_WITH_VETO',
  nowithveto: 'VOTE_OPTION_NO_WITH_VETO',
};

/** VOTE_OPTION_YES … (the SDK's form) or yes / no / abstain / no_with_veto. */
export function voteOption(text: string): string {
  const upper = text.toUpperCase();
  if (Object.values(VOTE_OPTIONS).includes(upper)) return upper;
  const option = VOTE_OPTIONS[text.toLowerCase().replace(/-/g, '_')];
  if (option === undefined) throw usage(`invalid vote option "${text}"`, 'one of VOTE_OPTION_YES, VOTE_OPTION_NO, VOTE_OPTION_ABSTAIN, VOTE_OPTION_NO_WITH_VETO (or yes, no, abstain, no_with_veto)');
  return option;
}

/** What a group tx command declares. */
export interface GroupTxSpec {
  /** Msg type name under cosmos.group.v1 (e.g. "MsgCreateGroup"). */
  msg: string;
  summary: string;
  description?: string;
  examples: string[];
  /** Positional arguments in order: name → description. */
  args: Record<string, string>;
  /** The argument naming the signer (key name or address); default the first. */
  signerArg?: string;
  /** The message's signer field, set to the key's address; undefined: `build` sets the signers itself. */
  signerField?: string;
  /** The signer when no argument names it (submit-proposal: the first proposer of the file). */
  signerOf?: (fields: JsonObject) => string;
  /** Extra flags. */
  flags?: Record<string, { description: string; boolean?: boolean }>;
  /**
   * The message fields (gateway JSON, proto names) from the arguments and flags, without the
   * signer field; throws a usage error for bad input. Runs before anything is signed.
   */
  build(args: Record<string, string>, flags: Record<string, string | boolean | undefined>): Promise<JsonObject>;
}

/** A `tx group …` command class from its spec. */
export function groupTxCommand(spec: GroupTxSpec): typeof Command {
  const argDefs: Record<string, ReturnType<typeof Args.string>> = {};
  for (const [name, description] of Object.entries(spec.args)) argDefs[name] = Args.string({ required: true as boolean, description });
  const extraFlags: Record<string, unknown> = {};
  for (const [name, flag] of Object.entries(spec.flags ?? {})) extraFlags[name] = flag.boolean ? Flags.boolean({ description: flag.description }) : Flags.string({ description: flag.description });
  const signerArg = spec.signerArg ?? Object.keys(spec.args)[0]!;

  class GroupTxCommand extends TxCommand<typeof GroupTxCommand> {
    static override summary = spec.summary;
    static override description = `${spec.description ?? ''}${spec.description ? '\n\n' : ''}Signs a /cosmos.group.v1.${spec.msg} with ${spec.signerOf ? 'the key of its first proposer' : `<${signerArg}>`} (a key name or address, as the SDK sets --from from it) and broadcasts it.`;
    static override examples = spec.examples;
    static override args = argDefs;
    static override flags = { ...txFlags, ...(extraFlags as Record<string, typeof txFlags.from>) };

    async execute(): Promise<TxOutcome> {
      const args = this.args as Record<string, string>;
      const flags = this.flags as Record<string, string | boolean | undefined>;
      // Every argument and file is checked before the keyring is opened.
      const fields = await spec.build(args, flags);
      const named = spec.signerOf ? spec.signerOf(fields) : args[signerArg]!;
      if (flags.from !== undefined && flags.from !== named) throw usage(`--from ${String(flags.from)} differs from the signer ${named}`, `the ${spec.signerOf ? 'first proposer' : signerArg} signs; drop --from or make them the same`);
      const { fromGatewayJson } = await import('../node/codec/json.js');
      // The app's registry: proposal messages are Anys of any module's Msg.
      const { appRegistry: registry } = await import('../node/app/modules.js');
      const { packMessage } = await import('../node/client/tx.js');
      const { toAccountAddress } = await import('../keyring/address.js');
      const schema = registry.getMessage(`cosmos.group.v1.${spec.msg}`)!;
      const key = await this.signingKey(named);
      let message;
      try {
        message = fromGatewayJson(schema, spec.signerField === undefined ? fields : { ...fields, [spec.signerField]: toAccountAddress(key.address) }, { registry });
      } catch (err) {
        throw usage((err as Error).message);
      }
      return this.submit(key, [packMessage(schema, message)]);
    }
  }
  return GroupTxCommand;
}
