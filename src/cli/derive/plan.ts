/**
 * The command-line surface derived from a module's descriptor (node/platform/cli.ts): which
 * command each Query and Msg method becomes, its name and aliases, positional arguments, flags
 * and help text. Pure data over the protobuf descriptors: no oclif, no node access, so the build
 * (scripts/gen-cli-commands.js), the registration checks and every derived command share it.
 *
 * The rules (what a descriptor can override, per method):
 * - name: the method name in kebab-case; with `use`, the kebab-case name stays as an alias;
 * - queries: the path variables of the method's `google.api.http` rule are the positional
 *   arguments, in path order (the REST contract makes them required); other fields are flags
 *   (kebab-case of the field name), `pagination` is the pagination flags, message fields JSON;
 * - Msgs: the signer field (`cosmos.msg.v1.signer`) comes from the signing key (--from); the other
 *   scalar and coin fields are positional in field order; message and list fields are flags;
 * - deprecated fields are left out; help is the proto comments (first sentence → summary).
 */
import { getOption, hasOption, ScalarType, type DescField, type DescMessage, type DescMethod, type DescService } from '@bufbuild/protobuf';
import { signer as signerOption } from '../../gen/cosmos/msg/v1/msg_pb.js';
import { scalar as scalarOption } from '../../gen/cosmos_proto/cosmos_pb.js';
import { http } from '../../gen/google/api/annotations_pb.js';
import { cliServices, type MethodCliOptions, type ModuleCli, type MsgFriendlyForm, type MsgMethodCli, type PositionalField, type ProtoComments } from '../../node/platform/cli.js';

export type CommandKind = 'query' | 'tx';

/** Which bech32 prefix an address field takes (from its `cosmos_proto.scalar`). */
/** `hex`: an account address a message carries as 0x hex (Ethermint-style fields). */
export type AddressKind = 'account' | 'validator' | 'consensus' | 'hex';

/** How the text a user types for a field becomes its gateway-JSON value. */
export type FieldValueKind =
  | 'string'
  | 'address'
  | 'bool'
  | 'int'
  | 'uint'
  | 'float'
  | 'bytes'
  | 'enum'
  /** One coin, "1000attotoken". */
  | 'coin'
  /** A coin list, "1000attotoken,5stake". */
  | 'coins'
  /** A message, map or list of messages, as JSON. */
  | 'json';

export interface FieldInput {
  /** Proto field name. */
  field: string;
  kind: FieldValueKind;
  /** A list of scalars (several values); coins and JSON lists are one value. */
  repeated: boolean;
  /** 64-bit integers print as strings in gateway JSON, 32-bit ones as numbers. */
  bits64?: boolean;
  address?: AddressKind;
  enumValues?: readonly string[];
  /** One line of help. */
  description: string;
}

export interface ArgPlan extends FieldInput {
  optional: boolean;
}

export interface FlagPlan extends FieldInput {
  /** Flag name (kebab-case of the field name). */
  name: string;
}

export interface CommandPlan {
  /** oclif command id, e.g. "query:staking:validators". */
  id: string;
  kind: CommandKind;
  module: string;
  method: DescMethod;
  /** Command name under its topic, e.g. "validators". */
  name: string;
  /** More command ids for the same command. */
  aliases: string[];
  summary: string;
  description: string;
  examples: string[];
  args: ArgPlan[];
  flags: FlagPlan[];
  /** The request has a `pagination` field: the command takes the pagination flags. */
  paginated: boolean;
  /** Every settable field of the request, by proto name (what a friendly form maps onto). */
  fields: ReadonlyMap<string, FieldInput>;
  /** Msgs: the field filled with the signing key's address. */
  signer?: { field: string; address: AddressKind };
  friendly?: MsgFriendlyForm;
}

export type MethodEntry =
  | { kind: CommandKind; method: DescMethod; source: 'derived'; id: string; plan: CommandPlan }
  | { kind: CommandKind; method: DescMethod; source: 'hand-written'; id: string }
  | { kind: CommandKind; method: DescMethod; source: 'skipped'; reason: string };

/** A descriptor that cannot be turned into commands: the build fails with this message. */
export class CliDescriptorError extends Error {
  override name = 'CliDescriptorError';
}

const PAGE_REQUEST_TYPE = 'cosmos.base.query.v1beta1.PageRequest';
const COIN_TYPE = 'cosmos.base.v1beta1.Coin';
/** Well-known types whose JSON form is a string a user can type (gateway JSON form). */
const STRING_JSON_TYPES = new Set(['google.protobuf.Timestamp', 'google.protobuf.Duration']);

const ADDRESS_SCALARS: Readonly<Record<string, AddressKind>> = {
  'cosmos.AddressString': 'account',
  'cosmos.ValidatorAddressString': 'validator',
  'cosmos.ConsensusAddressString': 'consensus',
  'ethermint.HexAddressString': 'hex',
};

const ADDRESS_HINT: Readonly<Record<AddressKind, string>> = {
  account: 'bech32 or 0x hex',
  validator: 'bech32 tokenvaloper1… or 0x hex',
  consensus: 'bech32 tokenvalcons1… or 0x hex',
  hex: '0x hex or bech32',
};

const INT_SCALARS = new Set([ScalarType.INT32, ScalarType.SINT32, ScalarType.SFIXED32, ScalarType.INT64, ScalarType.SINT64, ScalarType.SFIXED64]);
const UINT_SCALARS = new Set([ScalarType.UINT32, ScalarType.FIXED32, ScalarType.UINT64, ScalarType.FIXED64]);
const BITS64_SCALARS = new Set([ScalarType.INT64, ScalarType.SINT64, ScalarType.SFIXED64, ScalarType.UINT64, ScalarType.FIXED64]);

/** "DelegatorDelegations" → "delegator-delegations", "AccountAddressByID" → "account-address-by-id". */
export function kebabCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .replace(/_/g, '-')
    .toLowerCase();
}

/** A comment split into its first sentence and the rest: hard-wrapped lines joined, blank-line paragraphs kept. */
function splitComment(comment: string): { first: string; rest: string } {
  const [head = '', ...more] = comment
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.replace(/\s*\n\s*/g, ' ').trim())
    .filter(Boolean);
  // A sentence ends at . ! or ? followed by a capital letter or the end ("e.g. fee_collector" does not end one).
  const match = /^(.*?[.!?])(?:\s+(?=[A-Z(])|$)/.exec(head);
  const first = match?.[1] ?? head;
  const tail = head.slice(first.length).trim();
  return { first, rest: [tail, ...more].filter(Boolean).join('\n\n') };
}

/** The first sentence of a comment, without its final period (oclif summaries have none). */
export function firstSentence(comment: string): string {
  return splitComment(comment).first.replace(/\.$/, '');
}

/** Field paths bound by a path template's variables, in order: "/a/{address}/b/{id=*}" → ["address", "id"]. */
function pathVariables(pattern: string): string[] {
  return [...pattern.matchAll(/\{([^}=]+)(?:=[^}]*)?\}/g)].map((match) => match[1]!);
}

function fieldComment(comments: ProtoComments, message: DescMessage, field: DescField): string | undefined {
  return comments[`${message.typeName}.${field.name}`];
}

/** How a user types `field`, or undefined when it cannot be typed (it is then left out). */
function fieldInput(comments: ProtoComments, message: DescMessage, field: DescField): FieldInput {
  const comment = fieldComment(comments, message, field);
  const describe = (fallback: string, hint?: string): string => {
    let base = (comment ? firstSentence(comment) : fallback).replace(/\.$/, '');
    if (hint === undefined) return base;
    // "Delegator address (bech32)" + "bech32 or 0x hex" → "Delegator address (bech32 or 0x hex)".
    if (hint.startsWith('bech32')) base = base.replace(/\s*\(bech32[^)]*\)$/, '');
    return base.includes(hint) ? base : `${base} (${hint})`;
  };
  const base = { field: field.name, repeated: false } as const;
  if (field.fieldKind === 'map') return { ...base, kind: 'json', description: describe(field.name, 'JSON object') };
  if (field.fieldKind === 'message') {
    if (field.message.typeName === COIN_TYPE) return { ...base, kind: 'coin', description: describe('Amount', 'e.g. 1000attotoken') };
    if (STRING_JSON_TYPES.has(field.message.typeName)) return { ...base, kind: 'string', description: describe(field.name) };
    return { ...base, kind: 'json', description: describe(field.name, 'JSON') };
  }
  if (field.fieldKind === 'list') {
    if (field.listKind === 'message') {
      if (field.message.typeName === COIN_TYPE) return { ...base, kind: 'coins', description: describe('Coins', 'e.g. 1000attotoken,5stake') };
      return { ...base, kind: 'json', description: describe(field.name, 'JSON list') };
    }
    const element: Partial<FieldInput> & Pick<FieldInput, 'kind'> = field.listKind === 'enum' ? enumInput(field.enum.values.map((v) => v.name)) : scalarInput(field.scalar, field);
    return { ...base, ...element, repeated: true, description: describe(field.name, element.address ? ADDRESS_HINT[element.address] : undefined) };
  }
  if (field.fieldKind === 'enum') return { ...base, ...enumInput(field.enum.values.map((v) => v.name)), description: describe(field.name) };
  const scalarKind = scalarInput(field.scalar, field);
  return { ...base, ...scalarKind, description: describe(field.name, scalarKind.address ? ADDRESS_HINT[scalarKind.address] : scalarKind.kind === 'bytes' ? 'base64 or 0x hex' : undefined) };
}

function enumInput(values: string[]): Pick<FieldInput, 'kind' | 'enumValues'> {
  return { kind: 'enum', enumValues: values };
}

function scalarInput(type: ScalarType, field: DescField): Pick<FieldInput, 'kind' | 'bits64' | 'address'> {
  if (type === ScalarType.STRING) {
    const address = hasOption(field, scalarOption) ? ADDRESS_SCALARS[getOption(field, scalarOption)] : undefined;
    return address ? { kind: 'address', address } : { kind: 'string' };
  }
  if (type === ScalarType.BOOL) return { kind: 'bool' };
  if (type === ScalarType.BYTES) return { kind: 'bytes' };
  if (INT_SCALARS.has(type)) return { kind: 'int', bits64: BITS64_SCALARS.has(type) };
  if (UINT_SCALARS.has(type)) return { kind: 'uint', bits64: BITS64_SCALARS.has(type) };
  return { kind: 'float' };
}

/** Fields a user can set: not deprecated, not the pagination request (that has its own flags). */
function settableFields(message: DescMessage): DescField[] {
  return message.fields.filter((field) => !field.deprecated && !isPagination(field));
}

function isPagination(field: DescField): boolean {
  return field.fieldKind === 'message' && field.message.typeName === PAGE_REQUEST_TYPE;
}

/** Scalar-like fields a Msg takes as positional arguments by default. */
function positionalByDefault(input: FieldInput): boolean {
  if (input.kind === 'json') return false;
  return !input.repeated;
}

function methodCommentKey(method: DescMethod): string {
  return `${method.parent.typeName}.${method.name}`;
}

/** Summary (the comment's first sentence) and description (oclif prints it after the summary: the rest of the comment, then how the command works). */
function describeMethod(kind: CommandKind, method: DescMethod, comments: ProtoComments, options: MethodCliOptions, otherNames: readonly string[]): { summary: string; description: string } {
  const comment = comments[methodCommentKey(method)];
  const { first, rest } = comment ? splitComment(comment) : { first: `${method.parent.typeName}/${method.name}`, rest: '' };
  const how =
    kind === 'query'
      ? `Calls ${method.parent.typeName}/${method.name} on the node (--node) through abci_query.`
      : `Signs a /${method.input.typeName} with --from and broadcasts it (-b sync by default).`;
  const also = otherNames.length > 0 ? `Also available as: ${otherNames.join(', ')}.` : '';
  return { summary: options.summary ?? first.replace(/\.$/, ''), description: [rest, how, also].filter(Boolean).join('\n\n') };
}

function signerOf(method: DescMethod, fields: ReadonlyMap<string, FieldInput>): { field: string; address: AddressKind } | undefined {
  const names = hasOption(method.input, signerOption) ? getOption(method.input, signerOption) : [];
  const name = names[0];
  if (name === undefined) return undefined;
  const input = fields.get(name);
  if (input === undefined || input.kind !== 'address' || input.repeated || names.length !== 1) return undefined;
  return { field: name, address: input.address! };
}

function normalizePositional(entry: string | PositionalField): PositionalField {
  return typeof entry === 'string' ? { field: entry } : entry;
}

interface ServicePlanInput {
  kind: CommandKind;
  service: DescService;
  overrides: Readonly<Record<string, MethodCliOptions | MsgMethodCli>>;
}

function servicesOf(cli: ModuleCli): ServicePlanInput[] {
  const out: ServicePlanInput[] = [];
  for (const entry of cliServices(cli, 'query')) out.push({ kind: 'query', service: entry.service, overrides: entry.overrides ?? {} });
  for (const entry of cliServices(cli, 'tx')) out.push({ kind: 'tx', service: entry.service, overrides: entry.overrides ?? {} });
  return out;
}

function topicIds(cli: ModuleCli, kind: CommandKind): string[] {
  return [cli.module, ...(cli.aliases ?? [])].map((topic) => `${kind}:${topic}`);
}

/**
 * Every Query and Msg method of a module and what it becomes: a derived command (with its full
 * plan), a hand-written command, or nothing (skipped, with the reason). Throws CliDescriptorError
 * for a descriptor that cannot work (an override naming no method, an unknown or misplaced
 * positional field, two commands with one name, a Msg whose signer is not an address field).
 */
export function planModule(cli: ModuleCli): MethodEntry[] {
  const entries: MethodEntry[] = [];
  // Command names per kind, across the module's services (a module may list several).
  const takenByKind = new Map<CommandKind, Map<string, string>>();
  for (const { kind, service, overrides } of servicesOf(cli)) {
    const unknown = Object.keys(overrides).filter((name) => !service.methods.some((method) => method.name === name));
    if (unknown.length > 0) throw new CliDescriptorError(`${cli.module} CLI: ${service.typeName} has no method ${unknown.join(', ')}`);
    const taken = takenByKind.get(kind) ?? new Map<string, string>();
    takenByKind.set(kind, taken);
    const claim = (name: string, owner: string): void => {
      const previous = taken.get(name);
      if (previous !== undefined && previous !== owner) throw new CliDescriptorError(`${cli.module} CLI: "${kind} ${cli.module} ${name}" would be both ${previous} and ${owner}`);
      taken.set(name, owner);
    };
    // Names first (explicit ones win over the kebab-case aliases added for renamed commands).
    const names = new Map<string, { use: string; aliases: string[] }>();
    for (const method of service.methods) {
      const options = overrides[method.name] ?? {};
      if (options.skip !== undefined || options.handWritten !== undefined) continue;
      const use = options.use ?? kebabCase(method.name);
      claim(use, method.name);
      for (const alias of options.aliases ?? []) claim(alias, method.name);
      names.set(method.name, { use, aliases: [...(options.aliases ?? [])] });
    }
    for (const method of service.methods) {
      const entry = names.get(method.name);
      const kebab = kebabCase(method.name);
      // No alias that is also a topic of other commands (`connection` beside `connection:end`).
      const isTopic = [...taken.keys()].some((name) => name.startsWith(`${kebab}:`));
      if (entry && entry.use !== kebab && !taken.has(kebab) && !isTopic) {
        taken.set(kebab, method.name);
        entry.aliases.push(kebab);
      }
    }
    for (const method of service.methods) {
      const options = overrides[method.name] ?? {};
      if (options.skip !== undefined) {
        entries.push({ kind, method, source: 'skipped', reason: options.skip });
      } else if (options.handWritten !== undefined) {
        entries.push({ kind, method, source: 'hand-written', id: options.handWritten });
      } else {
        const plan = planMethod(cli, kind, method, options, names.get(method.name)!);
        entries.push({ kind, method, source: 'derived', id: plan.id, plan });
      }
    }
  }
  return entries;
}

function planMethod(cli: ModuleCli, kind: CommandKind, method: DescMethod, options: MethodCliOptions | MsgMethodCli, names: { use: string; aliases: string[] }): CommandPlan {
  const where = `${kind} ${cli.module} ${names.use} (${method.parent.typeName}/${method.name})`;
  const message = method.input;
  const fields = new Map<string, FieldInput>();
  for (const field of settableFields(message)) fields.set(field.name, fieldInput(cli.comments, message, field));
  const paginated = message.fields.some((field) => field.name === 'pagination' && isPagination(field));

  let signer: CommandPlan['signer'];
  if (kind === 'tx') {
    signer = signerOf(method, fields);
    const friendly = (options as MsgMethodCli).friendly;
    if (signer === undefined) {
      throw new CliDescriptorError(`${where}: its signer is not a single address field, so the command cannot be derived; give the method a friendly form with a hand-written command (handWritten) or skip it`);
    }
    fields.delete(signer.field);
    if (friendly !== undefined && options.positional !== undefined) throw new CliDescriptorError(`${where}: a friendly form has its own arguments; drop "positional"`);
    // The fields a friendly form sets, checked now rather than when a user runs it.
    const unknownFields = friendly === undefined ? [] : Object.keys(friendly.toFields({ args: {}, flags: {} })).filter((field) => !fields.has(field));
    if (unknownFields.length > 0) throw new CliDescriptorError(`${where}: the friendly form sets ${unknownFields.join(', ')}, not settable fields of ${message.typeName}`);
  }

  let positional: PositionalField[];
  if (options.positional !== undefined) {
    positional = options.positional.map(normalizePositional);
  } else if (kind === 'query') {
    const rule = hasOption(method, http) ? getOption(method, http) : undefined;
    const pattern = rule?.pattern.case !== undefined && rule.pattern.case !== 'custom' ? rule.pattern.value : '';
    positional = pathVariables(pattern)
      .filter((name) => fields.has(name))
      .map((field) => ({ field }));
  } else {
    positional = [...fields.values()].filter(positionalByDefault).map((input) => ({ field: input.field }));
  }
  if ((options as MsgMethodCli).friendly !== undefined) positional = [];

  const args: ArgPlan[] = positional.map((entry, i) => {
    const input = fields.get(entry.field);
    if (input === undefined) throw new CliDescriptorError(`${where}: positional field "${entry.field}" is not a settable field of ${message.typeName}`);
    const optional = entry.optional ?? false;
    const later = positional.slice(i + 1);
    if (!optional && positional.slice(0, i).some((previous) => previous.optional)) {
      throw new CliDescriptorError(`${where}: required argument "${entry.field}" follows an optional one`);
    }
    if (input.repeated && later.length > 0) throw new CliDescriptorError(`${where}: list field "${entry.field}" must be the last positional argument`);
    return { ...input, optional };
  });
  const positionalNames = new Set(args.map((arg) => arg.field));
  const flags: FlagPlan[] =
    (options as MsgMethodCli).friendly !== undefined
      ? []
      : [...fields.values()].filter((input) => !positionalNames.has(input.field)).map((input) => ({ ...input, name: kebabCase(input.field) }));

  const topics = topicIds(cli, kind);
  const [primaryTopic, ...aliasTopics] = topics;
  const aliases = [...names.aliases.map((alias) => `${primaryTopic}:${alias}`), ...aliasTopics.flatMap((topic) => [names.use, ...names.aliases].map((name) => `${topic}:${name}`))];
  const { summary, description } = describeMethod(kind, method, cli.comments, options, aliases.map((alias) => `<%= config.bin %> ${alias.replace(/:/g, ' ')}`));
  return {
    id: `${primaryTopic}:${names.use}`,
    kind,
    module: cli.module,
    method,
    name: names.use,
    aliases,
    summary,
    description,
    examples: [...(options.examples ?? [])],
    args,
    flags,
    paginated,
    fields,
    signer,
    friendly: (options as MsgMethodCli).friendly,
  };
}

/** The plan of one derived command (what a generated command file asks for at run time). */
export function planCommand(cli: ModuleCli, kind: CommandKind, methodName: string): CommandPlan {
  const entry = planModule(cli).find((candidate) => candidate.kind === kind && candidate.method.name === methodName);
  if (entry === undefined) throw new CliDescriptorError(`${cli.module} CLI: no ${kind} method ${methodName}`);
  if (entry.source !== 'derived') throw new CliDescriptorError(`${cli.module} CLI: ${kind} method ${methodName} is ${entry.source}, not derived`);
  return entry.plan;
}

export interface ModuleCommandIds {
  /** Query method name → the id of the command that calls it (derived or hand-written). */
  query: Record<string, string>;
  /** Msg method name → the id of the command that signs it. */
  tx: Record<string, string>;
  /** "<kind> <Method>" → why it has no command. */
  skipped: Record<string, string>;
}

/**
 * The command id of every Query and Msg method of a module (for the registration checks: every
 * method must have one). Skipped methods are listed apart with their reason.
 */
export function moduleCommandIds(cli: ModuleCli): ModuleCommandIds {
  const ids: ModuleCommandIds = { query: {}, tx: {}, skipped: {} };
  for (const entry of planModule(cli)) {
    if (entry.source === 'skipped') ids.skipped[`${entry.kind} ${entry.method.name}`] = entry.reason;
    else ids[entry.kind][entry.method.name] = entry.id;
  }
  return ids;
}

/** oclif topics of a module: `query <module>` and `tx <module>` (and their aliases) with their help line. */
export function moduleTopics(cli: ModuleCli): Record<string, { description: string }> {
  const topics: Record<string, { description: string }> = {};
  const describe = (kind: CommandKind): string =>
    kind === 'query' ? (cli.querySummary ?? `Querying commands for the ${cli.module} module`) : (cli.txSummary ?? `${cli.module} transaction subcommands`);
  for (const { kind, overrides } of servicesOf(cli)) {
    const [primary, ...aliases] = topicIds(cli, kind);
    topics[primary!] = { description: describe(kind) };
    for (const alias of aliases) topics[alias] = { description: `${describe(kind)} (same as ${primary!.replace(':', ' ')})` };
    // Nested command names ("client:states") make a subtopic ("query ibc client").
    for (const options of Object.values(overrides)) {
      const use = options.use ?? '';
      const parts = use.split(':');
      for (let depth = 1; depth < parts.length; depth++) {
        const sub = parts.slice(0, depth).join(' ');
        topics[`${primary!}:${parts.slice(0, depth).join(':')}`] = {
          description: kind === 'query' ? `Querying commands for the ${cli.module} ${sub}` : `${cli.module} ${sub} transaction subcommands`,
        };
      }
    }
  }
  return topics;
}
