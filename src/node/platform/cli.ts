/**
 * What a module declares about its command line (the SDK's autocli options, as data).
 *
 * The CLI derives one command per method of the module's services (src/cli/derive/):
 *   - every Query method → `tokend query <module> <method-in-kebab-case> <path variables…>`,
 *     the other request fields as flags, `pagination` as --page-key/--offset/--limit/…;
 *   - every Msg → `tokend tx <module> <method-in-kebab-case> <fields…> --from KEY`, the signer
 *     field (`cosmos.msg.v1.signer`) filled from the signing key, the other scalar and coin fields
 *     positional in field order, message fields as JSON flags.
 * Help text is the methods' and fields' proto comments (`npm run gen` writes them to
 * src/gen/<package>/comments.ts). A descriptor only names its services and overrides what the
 * defaults get wrong: a command name, argument order, a hand-written command, a friendlier form.
 *
 * A module's descriptor lives in `src/node/modules/<name>/cli.ts`, exported by name, and imports
 * only generated code: a command loads its own module's descriptor and nothing else. The app's
 * list of descriptors is derived from the module declarations (`cli` field) in `src/node/app/modules.ts`.
 */
import type { DescService } from '@bufbuild/protobuf';

/** Leading proto comments by full name ("pkg.Service.Method", "pkg.Message.field"). */
export type ProtoComments = Readonly<Record<string, string>>;

/** A positional argument bound to a request field (its proto name). */
export interface PositionalField {
  field: string;
  /** May be left out (only trailing arguments can be optional). A repeated field takes the rest of the arguments. */
  optional?: boolean;
}

/** Per-method overrides; every key is optional and the defaults apply where one is missing. */
export interface MethodCliOptions {
  /** Command name; default the method name in kebab-case (DelegatorDelegations → delegator-delegations). */
  use?: string;
  /** More names for the command, under the same topic. The kebab-case method name is added when `use` differs. */
  aliases?: readonly string[];
  /** Positional arguments in order (field proto names). Default: queries the path variables of the
   *  method's http rule in path order; Msgs every scalar and coin field except the signer, in field order. */
  positional?: readonly (string | PositionalField)[];
  /** First line of the help; default the first sentence of the method's proto comment. */
  summary?: string;
  /** Usage examples; `<%= config.bin %>` is the binary's name. */
  examples?: readonly string[];
  /** No command at all for this method; the reason is shown by the registration check. */
  skip?: string;
  /** The id of a hand-written command (a file under src/commands) that covers this method, e.g.
   *  "query:bank:balances" or "tx:send". Nothing is derived for the method. */
  handWritten?: string;
}

export type QueryMethodCli = MethodCliOptions;

/** An argument or flag of a friendly form. */
export interface FriendlyInputSpec {
  description: string;
  /** Default for a flag. */
  default?: string;
  /** A flag the command cannot do without (positional arguments are required unless `optional`). */
  required?: boolean;
  optional?: boolean;
}

/** The values a user typed for a friendly form's arguments and flags. */
export interface FriendlyInput {
  args: Readonly<Record<string, string | undefined>>;
  flags: Readonly<Record<string, string | undefined>>;
}

/**
 * A friendlier form of a Msg command: its own positional arguments and flags, mapped onto the
 * message's fields as the text a user would have typed for each field (coins as "10attotoken",
 * addresses as bech32 or hex, message fields as JSON). The derived parsers then read those values,
 * and the signer field is filled from the signing key, exactly as for the default form.
 */
export interface MsgFriendlyForm {
  /** Positional arguments in order, by name. */
  args?: Readonly<Record<string, FriendlyInputSpec>>;
  /** Flags, by name (kebab-case). */
  flags?: Readonly<Record<string, FriendlyInputSpec>>;
  /** Field proto name → text for that field; undefined leaves the field unset. */
  toFields(input: FriendlyInput): Readonly<Record<string, string | undefined>>;
}

export interface MsgMethodCli extends MethodCliOptions {
  friendly?: MsgFriendlyForm;
}

export interface ServiceCli<Options> {
  service: DescService;
  /** By method name as in the proto ("DelegatorDelegations"). */
  overrides?: Readonly<Record<string, Options>>;
}

export interface ModuleCli {
  /** Topic name: `tokend query <module>`, `tokend tx <module>`. */
  module: string;
  /** More topic names for the same commands (e.g. mint also as minting). */
  aliases?: readonly string[];
  /** The proto comments of the module's package (src/gen/<package>/comments.ts); spread several
   *  packages' objects together when the module spans more than one. */
  comments: ProtoComments;
  /** Topic help; default "Querying commands for the <module> module" / "<module> transaction subcommands". */
  querySummary?: string;
  txSummary?: string;
  /** The Query service, or several (a module of submodules, like ibc's client and connection). */
  query?: ServiceCli<QueryMethodCli> | readonly ServiceCli<QueryMethodCli>[];
  /** The Msg service, or several. */
  tx?: ServiceCli<MsgMethodCli> | readonly ServiceCli<MsgMethodCli>[];
}

/** The descriptor's services of one kind, as a list. */
export function cliServices(cli: ModuleCli, kind: 'query' | 'tx'): readonly ServiceCli<MsgMethodCli>[] {
  const entry: ServiceCli<MsgMethodCli> | readonly ServiceCli<MsgMethodCli>[] | undefined = cli[kind];
  if (entry === undefined) return [];
  return 'service' in entry ? [entry] : entry;
}
