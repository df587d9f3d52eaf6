/**
 * One client's prefixed view of the IBC store (ibc-go's ClientStore: `clients/{id}/…`), the
 * only way light clients touch state. Reads and writes go through the context, so a failed
 * message leaves nothing behind.
 */
import type { Context } from '../../../shared/context.js';
import { ClientStore, SECTION_CONSENSUS_STATES, SECTION_ITERATE, SECTION_OTHER, keyText, textKey } from './keys.js';

export class ClientStoreView {
  constructor(
    readonly ctx: Context,
    readonly clientId: string,
  ) {}

  /** A key in the default section (`clientState`, …). */
  get(key: string): Uint8Array | undefined {
    return ClientStore.get(this.ctx, [this.clientId, SECTION_OTHER, textKey(key)]);
  }

  set(key: string, value: Uint8Array): void {
    ClientStore.set(this.ctx, [this.clientId, SECTION_OTHER, textKey(key)], value);
  }

  /** `consensusStates/{rest}`. */
  getConsensus(rest: string): Uint8Array | undefined {
    return ClientStore.get(this.ctx, [this.clientId, SECTION_CONSENSUS_STATES, textKey(rest)]);
  }

  setConsensus(rest: string, value: Uint8Array): void {
    ClientStore.set(this.ctx, [this.clientId, SECTION_CONSENSUS_STATES, textKey(rest)], value);
  }

  deleteConsensus(rest: string): void {
    ClientStore.remove(this.ctx, [this.clientId, SECTION_CONSENSUS_STATES, textKey(rest)]);
  }

  /** `iterateConsensusStates ‖ key`. */
  setIteration(key: Uint8Array, value: Uint8Array): void {
    ClientStore.set(this.ctx, [this.clientId, SECTION_ITERATE, key], value);
  }

  deleteIteration(key: Uint8Array): void {
    ClientStore.remove(this.ctx, [this.clientId, SECTION_ITERATE, key]);
  }

  /** Iteration entries in key (height) order, optionally from/after a key, or reversed below one. */
  async *iteration(options: { after?: Uint8Array; before?: Uint8Array; reverse?: boolean } = {}): AsyncIterableIterator<[Uint8Array, Uint8Array]> {
    const range = {
      prefix: [this.clientId, SECTION_ITERATE] as const,
      ...(options.after !== undefined ? { start: [this.clientId, SECTION_ITERATE, options.after] as const, startExclusive: true } : {}),
      ...(options.before !== undefined ? { end: [this.clientId, SECTION_ITERATE, options.before] as const } : {}),
      reverse: options.reverse ?? false,
    };
    for await (const [[, , rest], value] of ClientStore.iterate(this.ctx, range)) yield [rest, value];
  }

  /** Every key of this client with its value, in store order (genesis export), relative to `clients/{id}/`. */
  async *all(): AsyncIterableIterator<[string, Uint8Array, Uint8Array]> {
    for await (const [[, section, rest], value] of ClientStore.iterate(this.ctx, { prefix: [this.clientId] })) yield [section, rest, value];
  }
}

export { keyText, textKey };
