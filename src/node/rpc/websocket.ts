/**
 * Websocket connections on /websocket (rpc/jsonrpc/server/ws_handler.go + rpc/core/events.go).
 *
 * Every route of the table is callable; subscribe/unsubscribe/unsubscribe_all only here. A
 * subscription's events are further replies carrying the subscribe request's id:
 *   {"jsonrpc":"2.0","id":<id>,"result":{"query":…,"data":{"type":"tendermint/event/Tx","value":…},"events":{…}}}
 * The connection is pinged every wsPingPeriodMs and dropped when silent for longer than
 * wsReadWaitMs. A client that does not read its events (more than subscriptionBufferSize unsent)
 * loses events, or — with closeOnSlowClient — its subscriptions, with a -32000 error.
 */
import type { WebSocket } from 'ws';
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

export function errorReply(idJson: string, code: number, message: string, data: string): string {
  return `{"jsonrpc":"2.0","id":${idJson},"error":${JSON.stringify(data ? { code, message, data } : { code, message })}}`;
}

export class WsSession implements WsSubscriber {
  readonly subs = new Map<string, Subscription>();
  private unsent = 0;
  private lastSeen = Date.now();
  private readonly heartbeat: NodeJS.Timeout;
  private closed = false;
  private droppedEvents = 0;

  constructor(
    private readonly ws: WebSocket,
    readonly remoteAddr: string,
    private readonly host: WsHost,
  ) {
    ws.on('message', (data, isBinary) => {
      this.lastSeen = Date.now();
      const text = Buffer.isBuffer(data) ? data.toString('utf8') : Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data).toString('utf8');
      if (isBinary) host.logger.debug('binary websocket message treated as text', { remote: remoteAddr });
      this.onMessage(text);
    });
    ws.on('pong', () => {
      this.lastSeen = Date.now();
    });
    ws.on('close', () => this.onClose());
    ws.on('error', (err) => host.logger.debug('websocket error', { remote: remoteAddr, err: err.message }));
    this.heartbeat = setInterval(() => this.ping(), host.options.wsPingPeriodMs);
    this.heartbeat.unref();
  }

  private ping(): void {
    if (Date.now() - this.lastSeen > this.host.options.wsReadWaitMs + this.host.options.wsPingPeriodMs) {
      this.host.logger.info('websocket client stopped answering pings; closing', { remote: this.remoteAddr });
      this.ws.terminate();
      return;
    }
    try {
      this.ws.ping();
    } catch {
      // closing
    }
  }

  private onMessage(text: string): void {
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

  /** Queue a text frame; returns false when the client is too slow to take more. */
  send(text: string): boolean {
    if (this.closed) return false;
    this.unsent++;
    this.ws.send(text, () => {
      this.unsent--;
    });
    return true;
  }

  /** Deliver one event reply (called by the server's event fan-out). */
  deliver(text: string): void {
    if (this.unsent >= this.host.options.subscriptionBufferSize) {
      if (this.host.options.closeOnSlowClient) {
        this.host.logger.info('websocket client too slow; cancelling its subscriptions', { remote: this.remoteAddr });
        for (const s of [...this.subs.values()]) {
          this.ws.send(errorReply(s.idJson, SERVER_ERROR, 'Server error', 'subscription was canceled (reason: slow client)'));
        }
        this.unsubscribeAll();
      } else if (this.droppedEvents++ % 1000 === 0) {
        this.host.logger.warn('websocket client too slow; dropping events', { remote: this.remoteAddr, dropped: this.droppedEvents });
      }
      return;
    }
    this.send(text);
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
    for (const s of this.subs.values()) {
      this.ws.send(errorReply(s.idJson, SERVER_ERROR, 'Server error', 'subscription was canceled (reason: CometBFT exited)'));
    }
    this.ws.close(code, reason);
    this.onClose();
  }

  private onClose(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    this.unsubscribeAll();
    this.host.sessionClosed(this);
  }
}
