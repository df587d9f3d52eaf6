/**
 * Query planning shared by the tx and block indexers.
 *
 * Conditions are sorted into: tm.event (decided statically: every indexed item is a Tx, resp. a
 * NewBlock), the height tag (tx.height / block.height → a height window), and attribute
 * conditions. The planner then picks the cheapest access path:
 *
 *   1. one equality condition (plus any height window): the ordinal index answers the count and
 *      any page directly — O(page size), whatever the number of matches;
 *   2. several attribute conditions with at least one equality: walk the equality with the fewest
 *      matches and verify each candidate's events (same-type conditions within ONE event);
 *   3. only range / CONTAINS / EXISTS conditions: enumerate the key's distinct values, keep the
 *      matching ones, merge their entries;
 *   4. no attribute condition: every item in the height window.
 */
import type { AbciEvent } from '../abci/types.js';
import type { AttributeIndex } from './attributeIndex.js';
import { readU64 } from './keys.js';
import { pageWindow, type SearchOptions } from './paging.js';
import { matchEventConditions, type Condition, type Query } from './query.js';
import type { IndexedRange } from './types.js';

/** The access paths a search target offers. Positions start with the height (u64 big-endian). */
export interface SearchTarget {
  /** "tx.height" | "block.height". */
  heightTag: string;
  /** tm.event values every indexed item satisfies. */
  eventNames: readonly string[];
  attributes: AttributeIndex;
  range(): IndexedRange;
  /** Indexed events of the item at `position` (for verification), undefined if gone. */
  loadEvents(position: Uint8Array): AbciEvent[] | undefined;
  /** Number of items with height in [from, to]. */
  countHeightWindow(from: number, to: number): Promise<number>;
  /** Items with height in [from, to] in order, skipping `skip`, at most `limit`. */
  scanHeightWindow(from: number, to: number, reverse: boolean, skip: number, limit: number): Promise<Uint8Array[]>;
}

/** A resolved result set: its size and a way to read one page of it. */
export interface Selection {
  total: number;
  read(skip: number, size: number, descending: boolean): Promise<Uint8Array[]>;
}

const EMPTY: Selection = { total: 0, read: async () => [] };

function comparePositions(a: Uint8Array, b: Uint8Array): number {
  return Buffer.compare(a, b);
}

function listSelection(positions: Uint8Array[]): Selection {
  return {
    total: positions.length,
    read: async (skip, size, descending) => {
      if (!descending) return positions.slice(skip, skip + size);
      const out: Uint8Array[] = [];
      for (let i = positions.length - 1 - skip; i >= 0 && out.length < size; i--) out.push(positions[i]!);
      return out;
    },
  };
}

interface HeightWindow {
  min: number;
  max: number;
  /** Height conditions that are not plain bounds (CONTAINS, dates, …), checked per item. */
  predicates: Condition[];
}

/** Fold a numeric height condition into the window; false when it cannot be a bound. */
function applyHeightBound(window: HeightWindow, cond: Condition): boolean {
  if (cond.op === 'EXISTS') return true;
  const operand = cond.operand;
  if (!operand || cond.op === 'CONTAINS') return false;
  // CometBFT reads tx.height = '5' as the number 5 too.
  if (!/^\d+(\.\d+)?$/.test(operand.text) || (operand.kind !== 'number' && !(cond.op === '=' && operand.kind === 'string'))) return false;
  const text = operand.text;
  const isInt = !text.includes('.') || /\.0*$/.test(text);
  const floor = Number(text.split('.')[0]);
  const ceil = isInt ? floor : floor + 1;
  switch (cond.op) {
    case '=':
      if (!isInt) window.max = -1;
      window.min = Math.max(window.min, floor);
      window.max = Math.min(window.max, floor);
      return true;
    case '>':
      window.min = Math.max(window.min, floor + 1);
      return true;
    case '>=':
      window.min = Math.max(window.min, ceil);
      return true;
    case '<':
      window.max = Math.min(window.max, ceil - 1);
      return true;
    case '<=':
      window.max = Math.min(window.max, floor);
      return true;
  }
  return false;
}

export interface Plan {
  window: HeightWindow;
  attributes: Condition[];
  /** A tm.event condition no indexed item satisfies. */
  impossible: boolean;
}

/** Sort a query's conditions for a target (tx.hash is handled by the tx indexer before this). */
export function planQuery(query: Query, target: Pick<SearchTarget, 'heightTag' | 'eventNames'>, skipTags: readonly string[] = []): Plan {
  const window: HeightWindow = { min: 0, max: Number.MAX_SAFE_INTEGER, predicates: [] };
  const attributes: Condition[] = [];
  let impossible = false;
  for (const cond of query.conditions) {
    if (skipTags.includes(cond.tag)) continue;
    if (cond.tag === 'tm.event') {
      if (!target.eventNames.some((name) => cond.matches(name))) impossible = true;
    } else if (cond.tag === target.heightTag) {
      if (!applyHeightBound(window, cond)) window.predicates.push(cond);
    } else {
      attributes.push(cond);
    }
  }
  return { window, attributes, impossible };
}

function heightPredicatesHold(window: HeightWindow, height: number): boolean {
  for (const p of window.predicates) if (!p.matches(String(height))) return false;
  return true;
}

/** Whether an item (height, events) satisfies a plan; used for direct lookups (tx.hash). */
export function planMatches(plan: Plan, height: number, events: readonly AbciEvent[]): boolean {
  if (plan.impossible) return false;
  if (height < plan.window.min || height > plan.window.max || !heightPredicatesHold(plan.window, height)) return false;
  return plan.attributes.length === 0 || matchEventConditions(plan.attributes, events, true);
}

/** Resolve a plan to a selection over the target's indexes. */
export async function select(target: SearchTarget, plan: Plan): Promise<Selection> {
  if (plan.impossible) return EMPTY;
  const range = target.range();
  if (range.count === 0) return EMPTY;
  const min = Math.max(plan.window.min, range.earliest);
  const max = Math.min(plan.window.max, range.latest);
  if (min > max) return EMPTY;
  const window = { min, max, predicates: plan.window.predicates };
  const attrs = target.attributes;

  if (plan.attributes.length === 0) return heightWindowSelection(target, window);

  const equalities = plan.attributes.filter((c) => c.op === '=' && c.operand !== undefined);
  if (equalities.length > 0) {
    let driver = equalities[0]!;
    let driverCount = attrs.count(driver.tag, driver.operand!.text);
    for (const c of equalities.slice(1)) {
      const n = attrs.count(c.tag, c.operand!.text);
      if (n < driverCount) {
        driver = c;
        driverCount = n;
      }
    }
    if (driverCount === 0) return EMPTY;
    const base = attrs.entryBase(driver.tag, driver.operand!.text);
    const lo = min > range.earliest ? attrs.lowerBoundByHeight(base, driverCount, min) : 0;
    const hi = max < range.latest ? attrs.lowerBoundByHeight(base, driverCount, max + 1) : driverCount;
    if (plan.attributes.length === 1 && window.predicates.length === 0) {
      // Path 1: a seq range of the ordinal index.
      return {
        total: Math.max(0, hi - lo),
        read: async (skip, size, descending) => {
          const out: Uint8Array[] = [];
          for (let i = 0; i < size; i++) {
            const seq = descending ? hi - 1 - skip - i : lo + skip + i;
            const pos = attrs.entry(base, seq);
            if (pos) out.push(pos);
          }
          return out;
        },
      };
    }
    // Path 2: walk the smallest equality and verify the rest.
    const positions: Uint8Array[] = [];
    for await (const pos of attrs.entries(base, lo, hi)) {
      if (!heightPredicatesHold(window, readU64(pos, 0))) continue;
      const events = target.loadEvents(pos);
      if (events && matchEventConditions(plan.attributes, events, true)) positions.push(pos);
    }
    return listSelection(positions);
  }

  // Path 3: no equality; enumerate the driver's values.
  const driver = plan.attributes[0]!;
  const byId = new Map<string, Uint8Array>();
  for await (const { value, count } of attrs.values(driver.tag)) {
    if (count === 0 || !driver.matches(value)) continue;
    const base = attrs.entryBase(driver.tag, value);
    const lo = min > range.earliest ? attrs.lowerBoundByHeight(base, count, min) : 0;
    const hi = max < range.latest ? attrs.lowerBoundByHeight(base, count, max + 1) : count;
    for await (const pos of attrs.entries(base, lo, hi)) {
      byId.set(Buffer.from(pos.buffer, pos.byteOffset, pos.byteLength).toString('latin1'), pos);
    }
  }
  let positions = [...byId.values()].sort(comparePositions);
  if (window.predicates.length > 0) positions = positions.filter((pos) => heightPredicatesHold(window, readU64(pos, 0)));
  if (plan.attributes.length > 1) {
    positions = positions.filter((pos) => {
      const events = target.loadEvents(pos);
      return events !== undefined && matchEventConditions(plan.attributes, events, true);
    });
  }
  return listSelection(positions);
}

async function heightWindowSelection(target: SearchTarget, window: HeightWindow): Promise<Selection> {
  if (window.predicates.length > 0) {
    const all = await target.scanHeightWindow(window.min, window.max, false, 0, Number.MAX_SAFE_INTEGER);
    return listSelection(all.filter((pos) => heightPredicatesHold(window, readU64(pos, 0))));
  }
  const total = await target.countHeightWindow(window.min, window.max);
  return {
    total,
    read: (skip, size, descending) => target.scanHeightWindow(window.min, window.max, descending, skip, size),
  };
}

/** Run a plan and read the requested page (validating the page number against the total). */
export async function searchPage(target: SearchTarget, plan: Plan, options: SearchOptions): Promise<{ total: number; positions: Uint8Array[] }> {
  const selection = await select(target, plan);
  const { skip, size } = pageWindow(selection.total, options);
  const positions = size > 0 ? await selection.read(skip, size, options.orderBy === 'desc') : [];
  return { total: selection.total, positions };
}

