/**
 * oclif command classes for the derived commands (see plan.ts for the rules). The build writes
 * one small file per command into dist/commands that calls `derivedCommand(<module cli>, kind,
 * method)`, so running a command loads its own module's descriptor and nothing else.
 */
import { Args, Flags, type Command, type Interfaces } from '@oclif/core';
import type { JsonObject, JsonValue } from '@bufbuild/protobuf';
import type { ModuleCli } from '../../node/platform/cli.js';
import type { TxOutcome } from '../../node/client/broadcast.js';
import { BaseCommand, EXIT_USAGE } from '../base.js';
import { NodeCommand } from '../nodeCommand.js';
import { queryFlags } from '../nodeFlags.js';
import { paginationFlags, paginationRequest, type PaginationFlagValues } from '../queryCommand.js';
import { TxCommand, txFlags } from '../txCommand.js';
import { TokendError } from '../../util/errors.js';
import { planCommand, type ArgPlan, type CommandKind, type CommandPlan, type FlagPlan } from './plan.js';
import { addressString, fieldValue } from './values.js';

type AnyFlag = Interfaces.FlagInput[string];
type ArgDefinitions = Record<string, ReturnType<typeof Args.string>>;

function argName(arg: ArgPlan): string {
  return arg.field;
}

function argDefinitions(plan: CommandPlan): ArgDefinitions {
  const args: ArgDefinitions = {};
  if (plan.friendly) {
    for (const [name, spec] of Object.entries(plan.friendly.args ?? {})) args[name] = Args.string({ required: !spec.optional, description: spec.description });
    return args;
  }
  for (const arg of plan.args) {
    const description = arg.repeated ? `${arg.description}; one or more` : arg.description;
    args[argName(arg)] = Args.string({ required: !arg.optional, description });
  }
  return args;
}

function fieldFlag(flag: FlagPlan): AnyFlag {
  if (flag.kind === 'bool' && !flag.repeated) return Flags.boolean({ description: flag.description });
  if (flag.repeated) return Flags.string({ description: `${flag.description}; repeat the flag or separate with commas`, multiple: true, multipleNonGreedy: true });
  if (flag.kind === 'enum') return Flags.string({ description: flag.description, options: flag.enumValues });
  return Flags.string({ description: flag.description });
}

/** The command's own flags; a name that would shadow a global or tx flag is a descriptor error. */
function flagDefinitions(plan: CommandPlan, reserved: Record<string, unknown>): Record<string, AnyFlag> {
  const flags: Record<string, AnyFlag> = {};
  const add = (name: string, flag: AnyFlag): void => {
    if (name in reserved || name in flags || name === 'help') {
      throw new Error(`${plan.id.replace(/:/g, ' ')}: flag --${name} would shadow a common flag; bind the field to a positional argument in the module's cli.ts`);
    }
    flags[name] = flag;
  };
  if (plan.friendly) {
    for (const [name, spec] of Object.entries(plan.friendly.flags ?? {})) {
      add(name, Flags.string({ description: spec.description, default: spec.default, required: spec.required }));
    }
    return flags;
  }
  for (const flag of plan.flags) add(flag.name, fieldFlag(flag));
  return flags;
}

function variadic(plan: CommandPlan): boolean {
  return !plan.friendly && plan.args.some((arg) => arg.repeated);
}

/**
 * The request (gateway JSON, proto field names) from the parsed arguments and flags; the raw
 * positional argv is needed for a trailing list argument.
 */
async function requestFields(plan: CommandPlan, args: Record<string, string | undefined>, flags: Record<string, unknown>, argv: readonly string[]): Promise<JsonObject> {
  const request: JsonObject = {};
  if (plan.friendly) {
    const friendlyFlags: Record<string, string | undefined> = {};
    for (const name of Object.keys(plan.friendly.flags ?? {})) friendlyFlags[name] = flags[name] as string | undefined;
    const values = plan.friendly.toFields({ args, flags: friendlyFlags });
    for (const [field, raw] of Object.entries(values)) {
      if (raw === undefined) continue;
      const input = plan.fields.get(field);
      if (input === undefined) throw new Error(`${plan.id}: the friendly form sets unknown field ${field}`);
      request[field] = await fieldValue(input, raw, field.replace(/_/g, '-'));
    }
    return request;
  }
  for (const [i, arg] of plan.args.entries()) {
    const label = `<${argName(arg)}>`;
    if (arg.repeated) {
      const rest = argv.slice(i);
      if (rest.length > 0) request[arg.field] = await fieldValue(arg, rest, label);
      continue;
    }
    const raw = args[argName(arg)];
    if (raw !== undefined) request[arg.field] = await fieldValue(arg, raw, label);
  }
  for (const flag of plan.flags) {
    const raw = flags[flag.name] as string | boolean | string[] | undefined;
    if (raw === undefined) continue;
    request[flag.field] = await fieldValue(flag, raw, `--${flag.name}`);
  }
  return request;
}

function queryCommand(plan: CommandPlan): typeof Command {
  const ownFlags = flagDefinitions(plan, { ...BaseCommand.baseFlags, ...queryFlags, ...(plan.paginated ? paginationFlags : {}) });
  class DerivedQueryCommand extends NodeCommand<typeof DerivedQueryCommand, JsonValue> {
    static override summary = plan.summary;
    static override description = plan.description;
    static override examples = plan.examples;
    // Hidden: a topic's listing shows each command once; its help names the other spellings.
    static override hiddenAliases = plan.aliases;
    static override strict = !variadic(plan);
    static override args = argDefinitions(plan);
    static override flags = { ...queryFlags, ...(plan.paginated ? paginationFlags : {}), ...ownFlags };

    async execute(): Promise<JsonValue> {
      const flags = this.flags as Record<string, unknown>;
      const request = await requestFields(plan, this.args as Record<string, string | undefined>, flags, this.positionalArgv);
      if (plan.paginated) {
        const pagination = paginationRequest(flags as PaginationFlagValues);
        if (pagination) request.pagination = pagination;
      }
      const { queryMethod } = await import('../../node/client/query.js');
      const result = await queryMethod(await this.rpc(), plan.method, request, flags.height as number | undefined);
      return result.value;
    }
  }
  return DerivedQueryCommand;
}

function txCommand(plan: CommandPlan): typeof Command {
  const signer = plan.signer!;
  const ownFlags = flagDefinitions(plan, { ...BaseCommand.baseFlags, ...txFlags });
  class DerivedTxCommand extends TxCommand<typeof DerivedTxCommand> {
    static override summary = plan.summary;
    static override description = plan.description;
    static override examples = plan.examples;
    // Hidden: a topic's listing shows each command once; its help names the other spellings.
    static override hiddenAliases = plan.aliases;
    static override strict = !variadic(plan);
    static override args = argDefinitions(plan);
    static override flags = { ...txFlags, ...ownFlags };

    async execute(): Promise<TxOutcome> {
      // Every argument is checked before the keyring is opened or anything is signed.
      const message = await requestFields(plan, this.args as Record<string, string | undefined>, this.flags as Record<string, unknown>, this.positionalArgv);
      const key = await this.signingKey();
      message[signer.field] = await addressString(key.address, signer.address);
      const { fromGatewayJson } = await import('../../node/codec/json.js');
      const { registry } = await import('../../node/codec/registry.js');
      const { carriesAny } = await import('../../node/codec/lazyTypes.js');
      // A Msg with Anys (a proposal's messages, an authorization …) can name any module's types.
      if (carriesAny(plan.method.input)) await import('../../node/app/modules.js');
      const { packMessage } = await import('../../node/client/tx.js');
      let decoded;
      try {
        decoded = fromGatewayJson(plan.method.input, message, { registry });
      } catch (err) {
        throw new TokendError('INVALID_ARGUMENT', (err as Error).message, { exitCode: EXIT_USAGE });
      }
      return this.submit(key, [packMessage(plan.method.input, decoded)]);
    }
  }
  return DerivedTxCommand;
}

/** The oclif command class of a module's derived command for `methodName` of its Query (query) or Msg (tx) service. */
export function derivedCommand(cli: ModuleCli, kind: CommandKind, methodName: string): typeof Command {
  return commandFromPlan(planCommand(cli, kind, methodName));
}

export function commandFromPlan(plan: CommandPlan): typeof Command {
  return plan.kind === 'query' ? queryCommand(plan) : txCommand(plan);
}
