/**
 * The message router (baseapp's MsgServiceRouter): one handler per Msg type URL, shared by the
 * tx path and by modules that execute messages on someone's behalf (authz exec, gov proposals,
 * group exec, the ICA host). `dispatch` checks the message's signers against the accounts the
 * caller vouches for before running it, so a module can only act with the authority it has.
 */
import { create, fromBinary, toBinary, type DescMessage, type Message, type Registry } from '@bufbuild/protobuf';
import { AnySchema, type Any } from '@bufbuild/protobuf/wkt';
import type { AbciEvent } from '../abci/types.js';
import { accString } from '../modules/shared/address.js';
import type { Context } from '../modules/shared/context.js';
import { SdkErrors } from '../modules/shared/errors.js';
import { EventManager } from '../modules/shared/events.js';
import { bytesEqual } from '../modules/shared/keys.js';
import type { MsgRoute } from '../modules/shared/module.js';

/** A message's signers from its `cosmos.msg.v1.signer` option (the tx decoder's rule). */
export type SignersOf = (schema: DescMessage, message: Message) => Uint8Array[];

/** A message decoded from its Any, with its signers. */
export interface DecodedMsg {
  readonly typeUrl: string;
  readonly schema: DescMessage;
  readonly message: Message;
  readonly signers: Uint8Array[];
}

/** What a dispatched message produced. */
export interface DispatchResult {
  /** The handler's response packed as an Any (as in TxMsgData.msg_responses). */
  response: Any;
  /** Events the handler emitted (also emitted into the caller's event manager). */
  events: AbciEvent[];
}

export class MsgRouter {
  private readonly routes = new Map<string, MsgRoute>();
  private sealed = false;

  constructor(
    private readonly registry: () => Registry,
    private readonly signersOf: SignersOf,
  ) {}

  /** Adds routes; a type URL routed twice is a wiring error. */
  register(routes: readonly MsgRoute[], owner: string): void {
    if (this.sealed) throw new Error(`message routes of ${owner} registered after the router was sealed`);
    for (const route of routes) {
      if (this.routes.has(route.typeUrl)) throw new Error(`message ${route.typeUrl} is routed twice (again by module ${owner})`);
      this.routes.set(route.typeUrl, route);
    }
  }

  /** No more routes: the module list is complete. */
  seal(): void {
    this.sealed = true;
  }

  route(typeUrl: string): MsgRoute | undefined {
    return this.routes.get(typeUrl);
  }

  typeUrls(): string[] {
    return [...this.routes.keys()];
  }

  /** The signers `msg` declares (its `cosmos.msg.v1.signer` fields); throws for an unrouted or undecodable message. */
  signers(msg: Any): Uint8Array[] {
    if (!this.routes.has(msg.typeUrl)) throw SdkErrors.UnknownRequest.wrap(`unrecognized message route: ${msg.typeUrl}`);
    return this.decode(msg).signers;
  }

  /**
   * Decodes a message from its Any and finds its signers (what a module that executes messages
   * for others needs before it dispatches them: authz looks up the grant of the signer).
   */
  decode(msg: Any): DecodedMsg {
    const schema = this.registry().getMessage(msg.typeUrl.slice(msg.typeUrl.lastIndexOf('/') + 1));
    if (schema === undefined) throw SdkErrors.TxDecode.wrap(`unable to resolve type URL ${msg.typeUrl}`);
    let message: Message;
    try {
      message = fromBinary(schema, msg.value);
    } catch (err) {
      throw SdkErrors.TxDecode.wrap(`invalid ${msg.typeUrl}: ${err instanceof Error ? err.message : String(err)}`);
    }
    return { typeUrl: msg.typeUrl, schema, message, signers: this.signersOf(schema, message) };
  }

  /**
   * Runs `msg` as if sent in a tx signed by `authorizedSigners`: every signer the message
   * declares must be one of them (ErrUnauthorized otherwise). The caller owns branching: the
   * writes land in `ctx`'s branch.
   */
  async dispatch(ctx: Context, msg: Any | DecodedMsg, authorizedSigners: readonly Uint8Array[]): Promise<DispatchResult> {
    const route = this.routes.get(msg.typeUrl);
    if (route === undefined) throw SdkErrors.UnknownRequest.wrap(`unrecognized message route: ${msg.typeUrl}`);
    const decoded = 'schema' in msg ? msg : this.decode(msg);
    for (const signer of decoded.signers) {
      if (!authorizedSigners.some((allowed) => bytesEqual(allowed, signer))) {
        throw SdkErrors.Unauthorized.wrap(`message ${msg.typeUrl} requires signer ${accString(signer)}, which this execution does not hold`);
      }
    }
    const events = new EventManager();
    const response = await route.handler(ctx.with({ events }), decoded.message);
    for (const event of events.events) ctx.events.emit(event);
    return {
      response: create(AnySchema, { typeUrl: `/${route.responseSchema.typeName}`, value: toBinary(route.responseSchema, response) }),
      events: events.events,
    };
  }
}
