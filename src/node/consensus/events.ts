/**
 * The consensus event bus (types/event_bus.go). The RPC websocket and the tx indexer subscribe
 * here. Each published event carries its typed payload and the composite-key map CometBFT queries
 * match on ("tm.event", "tx.hash", "tx.height", "<type>.<key>" of ABCI events).
 *
 * Listeners run synchronously on the consensus loop: they must be quick and must not throw
 * (a throwing listener is logged and ignored).
 */
import type { AbciEvent, ExecTxResult, ResponseFinalizeBlock } from '../abci/types.js';
import { ConsensusError } from './errors.js';
import { nullLogger, type Logger } from '../logger.js';
import { txHash, type Block, type BlockId, type Header } from './types/block.js';
import { toHexUpper } from './types/bytes.js';
import type { Validator } from './types/validator.js';
import type { Vote } from './types/vote.js';

export interface EventDataNewBlock {
  block: Block;
  blockId: BlockId;
  resultFinalizeBlock: ResponseFinalizeBlock;
}

export interface EventDataNewBlockHeader {
  header: Header;
}

export interface EventDataNewBlockEvents {
  height: number;
  events: AbciEvent[];
  numTxs: number;
}

export interface EventDataTx {
  height: number;
  index: number;
  tx: Uint8Array;
  result: ExecTxResult;
}

export interface EventDataValidatorSetUpdates {
  validatorUpdates: Validator[];
}

export interface EventDataRoundState {
  height: number;
  round: number;
  /** "RoundStepNewHeight", "RoundStepPropose", … */
  step: string;
}

export interface EventDataNewRound extends EventDataRoundState {
  proposer: { address: Uint8Array; index: number };
}

export interface EventDataCompleteProposal extends EventDataRoundState {
  blockId: BlockId;
}

export interface EventDataVote {
  vote: Vote;
}

export interface ConsensusEventMap {
  NewBlock: EventDataNewBlock;
  NewBlockHeader: EventDataNewBlockHeader;
  NewBlockEvents: EventDataNewBlockEvents;
  Tx: EventDataTx;
  ValidatorSetUpdates: EventDataValidatorSetUpdates;
  NewRound: EventDataNewRound;
  NewRoundStep: EventDataRoundState;
  CompleteProposal: EventDataCompleteProposal;
  Vote: EventDataVote;
  TimeoutPropose: EventDataRoundState;
  TimeoutWait: EventDataRoundState;
  Polka: EventDataRoundState;
  Lock: EventDataRoundState;
  Unlock: EventDataRoundState;
  Relock: EventDataRoundState;
  ValidBlock: EventDataRoundState;
}

export type ConsensusEventType = keyof ConsensusEventMap;

export type ConsensusEvent = {
  [K in ConsensusEventType]: {
    type: K;
    data: ConsensusEventMap[K];
    /** Composite keys for query matching, e.g. {"tm.event":["Tx"],"tx.hash":["AB…"],"transfer.recipient":[…]}. */
    events: Record<string, string[]>;
  };
}[ConsensusEventType];

export type EventListener = (event: ConsensusEvent) => void;

/** The subscription side, as the RPC layer and indexers see it. */
export interface EventBusReader {
  /** Every event; returns an unsubscribe function. */
  subscribe(listener: EventListener): () => void;
  /** Events of one type. */
  on<K extends ConsensusEventType>(type: K, listener: (data: ConsensusEventMap[K], events: Record<string, string[]>) => void): () => void;
  /**
   * Resolve when the tx with this hash (hex, either case) is committed; reject with TIMEOUT after
   * `timeoutMs`. Create it BEFORE submitting the tx (broadcast_tx_commit) so the event cannot be missed.
   */
  waitForTx(hashHex: string, timeoutMs: number): { promise: Promise<EventDataTx>; cancel: () => void };
}

/** Composite keys of ABCI events: "type.key" → values (events without a type, attributes without a key are skipped). */
export function stringifyAbciEvents(events: readonly AbciEvent[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const e of events) {
    if (!e.type) continue;
    for (const a of e.attributes) {
      if (!a.key) continue;
      const key = `${e.type}.${a.key}`;
      (out[key] ??= []).push(a.value);
    }
  }
  return out;
}

/** The composite keys with "tm.event" = the event's type added. */
function withEventType(events: Record<string, string[]>, type: ConsensusEventType): Record<string, string[]> {
  return { ...events, 'tm.event': [...(events['tm.event'] ?? []), type] };
}

/**
 * Callers waiting for one tx (by hash) to be delivered, with a timeout: used by the consensus event
 * bus and by the indexer's relay (which delivers only after the tx is indexed), so that
 * `broadcast_tx_commit` can wait on either. `makeError` gives each owner its own error types.
 */
export class TxWaiters {
  private readonly waiters = new Map<string, Set<(data: EventDataTx) => void>>();

  constructor(private readonly makeError: (reason: 'timeout' | 'cancelled', hash: string) => Error) {}

  get size(): number {
    return this.waiters.size;
  }

  wait(hashHex: string, timeoutMs: number): { promise: Promise<EventDataTx>; cancel: () => void } {
    const key = hashHex.toUpperCase().replace(/^0X/, '');
    let timer: NodeJS.Timeout | undefined;
    let waiter: ((data: EventDataTx) => void) | undefined;
    let rejectFn: (err: Error) => void = () => {};
    const remove = (): void => {
      if (timer) clearTimeout(timer);
      const set = this.waiters.get(key);
      if (set && waiter) {
        set.delete(waiter);
        if (set.size === 0) this.waiters.delete(key);
      }
    };
    const promise = new Promise<EventDataTx>((resolve, reject) => {
      rejectFn = reject;
      waiter = (data) => {
        remove();
        resolve(data);
      };
      const set = this.waiters.get(key) ?? new Set<(data: EventDataTx) => void>();
      set.add(waiter);
      this.waiters.set(key, set);
      timer = setTimeout(() => {
        remove();
        reject(this.makeError('timeout', key));
      }, timeoutMs);
    });
    // A caller that drops the promise after cancel() must not cause an unhandled rejection.
    promise.catch(() => undefined);
    return {
      promise,
      cancel: () => {
        remove();
        rejectFn(this.makeError('cancelled', key));
      },
    };
  }

  /** Resolve everyone waiting for `hash` (uppercase hex). */
  deliver(hash: string, data: EventDataTx): void {
    const set = this.waiters.get(hash);
    if (set) for (const resolve of [...set]) resolve(data);
  }
}

export class EventBus implements EventBusReader {
  private readonly listeners = new Set<EventListener>();
  private readonly txWaiters = new TxWaiters((reason) =>
    reason === 'timeout' ? new ConsensusError('TIMEOUT', 'timed out waiting for tx to be included in a block') : new ConsensusError('STOPPED', 'wait for tx cancelled'),
  );

  constructor(private readonly logger: Logger = nullLogger) {}

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  on<K extends ConsensusEventType>(type: K, listener: (data: ConsensusEventMap[K], events: Record<string, string[]>) => void): () => void {
    return this.subscribe((event) => {
      if (event.type === type) listener(event.data as ConsensusEventMap[K], event.events);
    });
  }

  get hasSubscribers(): boolean {
    return this.listeners.size > 0;
  }

  waitForTx(hashHex: string, timeoutMs: number): { promise: Promise<EventDataTx>; cancel: () => void } {
    return this.txWaiters.wait(hashHex, timeoutMs);
  }

  /**
   * `events` may be a function: the composite keys are then computed when a listener first reads
   * them (and kept). The indexer's relay holds a block's Tx events until the block is indexed, and
   * when no subscription reads them, the keys of every tx were garbage that outlived V8's young
   * generation (about a tenth of what the node promoted under load).
   */
  publish<K extends ConsensusEventType>(type: K, data: ConsensusEventMap[K], events: Record<string, string[]> | (() => Record<string, string[]>) = {}): void {
    let event: ConsensusEvent;
    if (typeof events === 'function') {
      let composite: Record<string, string[]> | undefined;
      event = {
        type,
        data,
        get events() {
          return (composite ??= withEventType(events(), type));
        },
      } as ConsensusEvent;
    } else {
      event = { type, data, events: withEventType(events, type) } as ConsensusEvent;
    }
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        this.logger.error('event listener failed', { event: type, err: (err as Error).message });
      }
    }
  }

  // Typed helpers matching CometBFT's PublishEvent* functions.

  publishNewBlock(data: EventDataNewBlock): void {
    this.publish('NewBlock', data, () => stringifyAbciEvents(data.resultFinalizeBlock.events));
  }

  publishNewBlockHeader(data: EventDataNewBlockHeader): void {
    this.publish('NewBlockHeader', data);
  }

  publishNewBlockEvents(data: EventDataNewBlockEvents): void {
    this.publish('NewBlockEvents', data, stringifyAbciEvents(data.events));
  }

  publishTx(data: EventDataTx): void {
    const hash = toHexUpper(txHash(data.tx));
    if (this.listeners.size > 0) {
      this.publish('Tx', data, () => {
        const events = stringifyAbciEvents(data.result.events);
        events['tx.hash'] = [...(events['tx.hash'] ?? []), hash];
        events['tx.height'] = [...(events['tx.height'] ?? []), String(data.height)];
        return events;
      });
    }
    this.txWaiters.deliver(hash, data);
  }
}
