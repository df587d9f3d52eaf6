/**
 * Websocket connections on /websocket (rpc/jsonrpc/server/ws_handler.go + rpc/core/events.go).
 *
 * Every route of the table is callable; subscribe/unsubscribe/unsubscribe_all only here. A
 * subscription's events are further replies carrying the subscribe request's id:
 *   {"jsonrpc":"2.0","id":<id>,"result":{"query":…,"data":{"type":"tendermint/event/Tx","value":…},"events":{…}}}
 * The connection itself (frames, pings, the count of unsent frames) is the front's (front.ts), on
 * whichever thread it runs; a session gets its text frames and sends through a `WsLink`. A client
 * that does not read its events (more than subscriptionBufferSize unsent) loses events, or — with
 * closeOnSlowClient — its subscriptions, with a -32000 error.
 */
import type { Logger } from '../logger.js';
import type { Query } from '../indexer/query.js';
import { PARSE_ERROR, SERVER_ERROR } from './errors.js';
import type { RpcOptions } from './options.js';
import type { JsonRpcId, SubscriptionCounter, WsSubscriber } from './route.js';

export interface Subscription {
  query: Query;
  /** JSON of the id and of the query text as the client sent it (each event echoes both). */
  idJson: string;
  queryJson: string;
}

/** What a session needs from the server. */
export interface WsHost {
  readonly options: RpcOptions;
  readonly logger: Logger;
  readonly subscriptions: SubscriptionCounter;
  /** Run one request object; returns the reply text, undefined for a notification. */
  dispatch(request: { id: JsonRpcId; method: string; params: unknown }, session: WsSession): string | Promise<string>;
  sessionClosed(session: WsSession): void;
  subscriptionsChanged(): void;
}

/** How a session reaches its connection: a frame (`event`: may be dropped for a slow client), or the close. */
export interface WsLink {
  send(text: string, event: boolean): void;
  close(code: number, reason: string): void;
}

export function errorReply(idJson: string, code: number, message: string, data: string): string {
  return `{"jsonrpc":"2.0","id":${idJson},"error":${JSON.stringify(data ? { code, message, data } : { code, message })}}`;
}

export class WsSession implements WsSubscriber {
  readonly subs = new Map<string, Subscription>();
  private closed = false;

  constructor(
    private readonly link: WsLink,
    readonly remoteAddr: string,
    private readonly host: WsHost,
  ) {}

  /** One text frame from the client. */
  onMessage(text: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      this.send(errorReply('null', PARSE_ERROR, 'Parse error. Invalid JSON', `error unmarshaling request: ${(err as Error).message}`));
      return;
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      const what = Array.isArray(parsed) ? 'array' : parsed === null ? 'null' : typeof parsed;
      this.send(errorReply('null', PARSE_ERROR, 'Parse error. Invalid JSON', `error unmarshaling request: cannot unmarshal ${what} into a request object`));
      return;
    }
    const req = parsed as Record<string, unknown>;
    const rawId = req['id'];
    if (rawId === undefined || rawId === null) return; // notification
    if (typeof rawId !== 'number' && typeof rawId !== 'string') {
      this.send(errorReply('null', PARSE_ERROR, 'Parse error. Invalid JSON', `error unmarshaling request: json-rpc ID (${JSON.stringify(rawId)}) is of unknown type`));
      return;
    }
    const id = typeof rawId === 'number' ? Math.trunc(rawId) : rawId;
    const method = req['method'];
    if (method !== undefined && typeof method !== 'string') {
      this.send(errorReply('null', PARSE_ERROR, 'Parse error. Invalid JSON', 'error unmarshaling request: method must be a string'));
      return;
    }
    const reply = this.host.dispatch({ id, method: method ?? '', params: req['params'] }, this);
    if (typeof reply === 'string') this.send(reply);
    else reply.then((text) => this.send(text)).catch((err: unknown) => this.host.logger.error('websocket dispatch failed', { err: (err as Error).message }));
  }

  /** Send a reply frame. */
  send(text: string): void {
    if (!this.closed) this.link.send(text, false);
  }

  /** Deliver one event frame (the server's event fan-out); the front drops it for a slow client. */
  deliver(text: string): void {
    if (!this.closed) this.link.send(text, true);
  }

  /** The front found the client too slow to take its events (subscriptionBufferSize unsent). */
  onSlow(): void {
    if (this.closed || !this.host.options.closeOnSlowClient || this.subs.size === 0) return;
    this.host.logger.info('websocket client too slow; cancelling its subscriptions', { remote: this.remoteAddr });
    for (const s of [...this.subs.values()]) this.send(errorReply(s.idJson, SERVER_ERROR, 'Server error', 'subscription was canceled (reason: slow client)'));
    this.unsubscribeAll();
  }

  subscribe(query: Query, queryText: string, id: JsonRpcId): void {
    this.subs.set(query.toString(), { query, idJson: JSON.stringify(id), queryJson: JSON.stringify(queryText) });
    this.host.subscriptionsChanged();
  }

  unsubscribe(query: Query): void {
    this.subs.delete(query.toString());
    this.host.subscriptionsChanged();
  }

  unsubscribeAll(): void {
    for (const key of this.subs.keys()) this.host.subscriptions.remove(this.remoteAddr, key);
    this.subs.clear();
    this.host.subscriptionsChanged();
  }

  /** Close from the server side (shutdown). */
  close(code = 1001, reason = 'server shutting down'): void {
    if (this.closed) return;
    for (const s of this.subs.values()) this.send(errorReply(s.idJson, SERVER_ERROR, 'Server error', 'subscription was canceled (reason: CometBFT exited)'));
    this.link.close(code, reason);
    this.onClosed();
  }

  /** The connection is gone. */
  onClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribeAll();
    this.host.sessionClosed(this);
  }
}
