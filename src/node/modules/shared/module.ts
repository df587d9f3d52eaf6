/**
 * The module contract (GUIDE §3): what the app needs from each module to route its messages and
 * queries, run its genesis and its block hooks. Modules are self-contained; they see each other
 * only through the narrow keeper interfaces in their expectedKeepers.ts.
 */
import type { DescMessage, DescMethod, DescService, JsonObject, JsonValue, Message, MessageShape } from '@bufbuild/protobuf';
import type { GenService, GenServiceMethods } from '@bufbuild/protobuf/codegenv2';
import type { ValidatorUpdate } from '../../abci/types.js';
import type { Context } from './context.js';

/** Parameters of the default genesis (the `init` command's flags). */
export interface GenesisDefaults {
  /** The native/bond/fee denom, "attotoken" by default. */
  denom: string;
}

// ------------------------------------------------------------------------------------- Msg

/** One Msg service method: its type URL, schemas and handler. */
export interface MsgRoute {
  readonly typeUrl: string;
  readonly requestSchema: DescMessage;
  readonly responseSchema: DescMessage;
  readonly handler: (ctx: Context, msg: Message) => Message | Promise<Message>;
}

/** A typed Msg route from a generated service method. */
export function msgRoute<I extends DescMessage, O extends DescMessage>(
  method: { input: I; output: O },
  handler: (ctx: Context, msg: MessageShape<I>) => MessageShape<O> | Promise<MessageShape<O>>,
): MsgRoute {
  return {
    typeUrl: `/${method.input.typeName}`,
    requestSchema: method.input,
    responseSchema: method.output,
    handler: handler as unknown as MsgRoute["handler"],
  };
}

// ------------------------------------------------------------------------------------- Query

export type QueryHandler = (request: Message, ctx: Context) => Promise<Message>;

/** A module's implementation of one protobuf Query service (by method local name). */
export interface QueryServiceImpl {
  readonly service: DescService;
  readonly handlers: ReadonlyMap<string, QueryHandler>;
}

export type QueryImpl<M extends GenServiceMethods> = {
  [K in keyof M]?: (request: MessageShape<M[K]['input']>, ctx: Context) => Promise<MessageShape<M[K]['output']>>;
};

/** Binds typed handlers to a generated service; methods left out answer Unimplemented. */
export function defineQueryService<M extends GenServiceMethods>(service: GenService<M>, impl: QueryImpl<M>): QueryServiceImpl {
  const handlers = new Map<string, QueryHandler>();
  for (const method of (service as unknown as DescService).methods) {
    const handler = (impl as Record<string, QueryHandler | undefined>)[method.localName];
    if (handler !== undefined) handlers.set(method.localName, handler);
  }
  return { service: service as unknown as DescService, handlers };
}

export function methodPath(service: DescService, method: DescMethod): string {
  return `/${service.typeName}/${method.name}`;
}

// ------------------------------------------------------------------------------------- module

export interface AppModule {
  readonly name: string;
  /** Stores this module owns in the multi-store. */
  readonly storeKeys: readonly string[];
  readonly msgRoutes: readonly MsgRoute[];
  readonly queryServices: readonly QueryServiceImpl[];
  /** The module's default app_state entry (SDK genesis JSON, snake_case). */
  defaultGenesis(defaults: GenesisDefaults): JsonObject;
  /** Problems of the module's app_state entry, each naming what is wrong; [] when valid. */
  validateGenesis(genesis: JsonValue | undefined): string[];
  /** Writes the genesis state; may return the initial validator set. */
  initGenesis(ctx: Context, genesis: JsonValue | undefined): Promise<ValidatorUpdate[]>;
  exportGenesis(ctx: Context): Promise<JsonObject>;
  beginBlock?(ctx: Context): Promise<void>;
  endBlock?(ctx: Context): Promise<ValidatorUpdate[]>;
}
