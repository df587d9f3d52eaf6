/**
 * Helpers modules use to declare their Msg routes and Query services. The module contract
 * itself (declaration, instance, deps) is in src/node/platform/module.ts.
 */
import type { DescMessage, DescMethod, DescService, Message, MessageShape } from '@bufbuild/protobuf';
import type { GenService, GenServiceMethods } from '@bufbuild/protobuf/codegenv2';
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
