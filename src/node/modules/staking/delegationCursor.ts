/**
 * One delegation of a store scan (`StakingKeeper.scanDelegations`), read in place: the store
 * key holds the length-prefixed delegator and validator addresses, the value the Delegation
 * message whose shares (field 3) are parsed only on request. One cursor is moved from entry to
 * entry, so a scan of 100k delegations makes no object per delegation.
 */
import { decFromWireBytes, type Dec } from '../shared/dec.js';
import { ProtoReader } from '../shared/proto.js';

const EMPTY = new Uint8Array(0);

export class DelegationCursor {
  /** The store key's bytes (read only; valid during the visit): the addresses are ranges of it. */
  key: Uint8Array = EMPTY;
  delegatorAt = 0;
  delegatorLength = 0;
  validatorAt = 0;
  validatorLength = 0;
  private value: Uint8Array = EMPTY;
  private valueAt = 0;
  private readonly reader = new ProtoReader(EMPTY);

  /** Moves to the delegation whose key has its delegator's length byte at `at` (after the collection prefix). */
  moveTo(key: Uint8Array, at: number, value: Uint8Array, valueAt: number): void {
    this.key = key;
    this.delegatorLength = key[at]!;
    this.delegatorAt = at + 1;
    const validatorLengthAt = this.delegatorAt + this.delegatorLength;
    this.validatorLength = key[validatorLengthAt]!;
    this.validatorAt = validatorLengthAt + 1;
    this.value = value;
    this.valueAt = valueAt;
  }

  /** The delegator address as a copy. */
  delegator(): Uint8Array {
    return new Uint8Array(this.key.subarray(this.delegatorAt, this.delegatorAt + this.delegatorLength));
  }

  /** The validator operator address as a copy. */
  validator(): Uint8Array {
    return new Uint8Array(this.key.subarray(this.validatorAt, this.validatorAt + this.validatorLength));
  }

  /** The shares, parsed as `decFromWire` would parse their text (undefined if malformed; "" is zero). */
  shares(): Dec | undefined {
    const reader = this.reader.reset(this.value, this.valueAt);
    let start = 0;
    let end = 0;
    while (reader.nextField()) {
      if (reader.field === 3 && reader.wireType === 2) {
        start = reader.start;
        end = reader.end;
      }
    }
    return decFromWireBytes(this.value, start, end);
  }
}
