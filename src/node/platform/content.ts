/**
 * The legacy proposal-content router (x/gov v1beta1's Router, built in a Cosmos SDK app.go with
 * AddRoute): a v1beta1 proposal carries one `Content` Any (text, parameter change, software
 * upgrade, community pool spend …), and the module that owns the content's type carries it out
 * when the proposal passes. Modules declare their handlers in `ModuleInstance.legacyContent`;
 * gov asks `deps.contentRouter` — so the owner of a content type needs no link to gov, and gov
 * none to it.
 */
import { fromBinary, type DescMessage, type Message, type MessageShape } from '@bufbuild/protobuf';
import type { Any } from '@bufbuild/protobuf/wkt';
import type { Context } from '../modules/shared/context.js';
import { registerError, SdkErrors } from '../modules/shared/errors.js';

/** x/gov ErrNoProposalHandlerExists (gov, 9); registered here so content owners need not import gov. */
export const ErrNoProposalHandlerExists = registerError('gov', 9, 'no handler exists for proposal type');

/** One content type and what carrying it out does. */
export interface ContentRoute {
  readonly typeUrl: string;
  readonly schema: DescMessage;
  readonly handler: (ctx: Context, content: Message) => Promise<void>;
  /**
   * The content's own ValidateBasic beyond gov's title/description checks (e.g. the upgrade
   * plan's), run when a proposal is submitted; throws the SDK's error.
   */
  readonly validate?: (content: Message) => void;
}

/** A typed content route for a generated message schema. */
export function contentRoute<S extends DescMessage>(
  schema: S,
  handler: (ctx: Context, content: MessageShape<S>) => Promise<void>,
  validate?: (content: MessageShape<S>) => void,
): ContentRoute {
  return { typeUrl: `/${schema.typeName}`, schema, handler: handler as ContentRoute['handler'], ...(validate ? { validate: validate as ContentRoute['validate'] } : {}) };
}

export class ContentRouter {
  private readonly routes = new Map<string, ContentRoute & { owner: string }>();
  private sealed = false;

  /** Adds routes; a content type routed twice is a wiring error. */
  register(routes: readonly ContentRoute[], owner: string): void {
    if (this.sealed) throw new Error(`proposal content routes of ${owner} registered after the router was sealed`);
    for (const route of routes) {
      const existing = this.routes.get(route.typeUrl);
      if (existing !== undefined) throw new Error(`proposal content ${route.typeUrl} is routed by ${existing.owner} and again by ${owner}`);
      this.routes.set(route.typeUrl, { ...route, owner });
    }
  }

  seal(): void {
    this.sealed = true;
  }

  has(typeUrl: string): boolean {
    return this.routes.has(typeUrl);
  }

  /** Every routed content type URL. */
  typeUrls(): string[] {
    return [...this.routes.keys()];
  }

  /** The module that carries out `typeUrl`. */
  owner(typeUrl: string): string | undefined {
    return this.routes.get(typeUrl)?.owner;
  }

  /** Decodes `content` (gov/9 for an unrouted type, TxDecode for bytes that do not parse). */
  decode(content: Any): { route: ContentRoute; message: Message } {
    const route = this.routes.get(content.typeUrl);
    if (route === undefined) throw ErrNoProposalHandlerExists.wrap(content.typeUrl);
    let message: Message;
    try {
      message = fromBinary(route.schema, content.value);
    } catch (err) {
      throw SdkErrors.TxDecode.wrap(`invalid ${content.typeUrl}: ${err instanceof Error ? err.message : String(err)}`);
    }
    return { route, message };
  }

  /** The content's ValidateBasic at submission (gov/9 for an unrouted type); decodes it for the caller. */
  validate(content: Any): Message {
    const { route, message } = this.decode(content);
    route.validate?.(message);
    return message;
  }

  /**
   * Carries out `content` in `ctx` (the caller branches: a failing handler's writes must be
   * dropped, as gov does with a cache context when it executes a passed proposal).
   */
  async execute(ctx: Context, content: Any): Promise<void> {
    const { route, message } = this.decode(content);
    await route.handler(ctx, message);
  }
}
