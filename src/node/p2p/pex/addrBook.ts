/**
 * The address book (p2p/pex/addrbook.go, simplified): every peer address learned from config,
 * peers and PEX, split into "new" (heard of) and "old" (connected to successfully), with dial
 * attempts and bans. It is saved as `config/addrbook.json` in CometBFT's layout so an operator's
 * tools read it. With `addr_book_strict` only routable (public) addresses are kept.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { writeFileAtomicSync } from '../../consensus/privval.js';
import type { Logger } from '../../logger.js';
import { nullLogger } from '../../logger.js';
import { isRoutableIp, isValidIp, validateNodeId, type NetAddress } from '../netAddress.js';
import { isIP } from 'node:net';

/** CometBFT's selection sizes (params.go). */
const NEED_ADDRESS_THRESHOLD = 1000;
const GET_SELECTION_PERCENT = 23;
const MIN_GET_SELECTION = 32;
export const MAX_GET_SELECTION = 250;
const MAX_ADDRESSES = 10000;
const BUCKET_TYPE_NEW = 1;
const BUCKET_TYPE_OLD = 2;
/** Dial attempts after which a never-connected address is forgotten. */
const MAX_NEW_ATTEMPTS = 16;

interface KnownAddress {
  addr: NetAddress;
  src: NetAddress;
  attempts: number;
  bucketType: number;
  lastAttemptMs: number;
  lastSuccessMs: number;
  lastBanMs: number;
  bannedUntilMs: number;
}

export interface AddrBookOptions {
  /** Where to save (undefined: memory only). */
  filePath?: string;
  strict: boolean;
  privateIds: string[];
}

interface FileAddress {
  id: string;
  ip: string;
  port: number;
}

const ZERO_TIME = '0001-01-01T00:00:00Z';

function timeOf(ms: number): string {
  return ms > 0 ? new Date(ms).toISOString() : ZERO_TIME;
}

function msOf(text: unknown): number {
  if (typeof text !== 'string' || text.startsWith('0001-')) return 0;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : 0;
}

export class AddrBook {
  private readonly known = new Map<string, KnownAddress>();
  private readonly ourIds = new Set<string>();
  private readonly privateIds: Set<string>;
  private readonly key: string;
  private dirty = false;
  private readonly logger: Logger;

  constructor(
    private readonly options: AddrBookOptions,
    logger?: Logger,
  ) {
    this.logger = logger ?? nullLogger;
    this.privateIds = new Set(options.privateIds);
    this.key = randomBytes(12).toString('hex');
    this.load();
  }

  addOurAddress(id: string): void {
    this.ourIds.add(id);
  }

  get size(): number {
    return this.known.size;
  }

  isEmpty(): boolean {
    return this.known.size === 0;
  }

  needMoreAddrs(): boolean {
    return this.known.size < NEED_ADDRESS_THRESHOLD;
  }

  has(id: string): boolean {
    return this.known.has(id);
  }

  /** Why `addr` would not be kept (undefined = it is acceptable). */
  rejection(addr: NetAddress): string | undefined {
    try {
      validateNodeId(addr.id);
    } catch (err) {
      return (err as Error).message;
    }
    if (this.ourIds.has(addr.id)) return 'cannot add ourselves';
    if (this.privateIds.has(addr.id)) return 'private peer ID';
    if (isIP(addr.host) === 0) return undefined; // a DNS name: checked when dialed
    if (!isValidIp(addr.host)) return `invalid IP ${addr.host}`;
    if (this.options.strict && !isRoutableIp(addr.host)) return `non-routable address ${addr.host} (addr_book_strict)`;
    return undefined;
  }

  /** Learn an address heard from `src`; false (and why, at debug level) when not kept. */
  addAddress(addr: NetAddress, src: NetAddress): boolean {
    const why = this.rejection(addr);
    if (why) {
      this.logger.debug('address not added to the address book', { address: `${addr.id}@${addr.host}:${addr.port}`, reason: why });
      return false;
    }
    const existing = this.known.get(addr.id);
    if (existing) {
      if (existing.bucketType === BUCKET_TYPE_NEW && (existing.addr.host !== addr.host || existing.addr.port !== addr.port)) existing.addr = { ...addr };
      return true;
    }
    if (this.known.size >= MAX_ADDRESSES) this.expireOne();
    this.known.set(addr.id, {
      addr: { ...addr },
      src: { ...src },
      attempts: 0,
      bucketType: BUCKET_TYPE_NEW,
      lastAttemptMs: 0,
      lastSuccessMs: 0,
      lastBanMs: 0,
      bannedUntilMs: 0,
    });
    this.dirty = true;
    return true;
  }

  private expireOne(): void {
    let worst: KnownAddress | undefined;
    for (const ka of this.known.values()) if (ka.bucketType === BUCKET_TYPE_NEW && (!worst || ka.attempts > worst.attempts)) worst = ka;
    if (worst) this.known.delete(worst.addr.id);
  }

  removeAddress(addr: NetAddress): void {
    if (this.known.delete(addr.id)) this.dirty = true;
  }

  markAttempt(addr: NetAddress): void {
    const ka = this.known.get(addr.id);
    if (!ka) return;
    ka.attempts++;
    ka.lastAttemptMs = Date.now();
    if (ka.bucketType === BUCKET_TYPE_NEW && ka.attempts > MAX_NEW_ATTEMPTS) this.known.delete(addr.id);
    this.dirty = true;
  }

  /** Connected successfully: the address moves to the "old" bucket. */
  markGood(id: string): void {
    const ka = this.known.get(id);
    if (!ka) return;
    ka.attempts = 0;
    ka.lastSuccessMs = Date.now();
    ka.bucketType = BUCKET_TYPE_OLD;
    this.dirty = true;
  }

  markBad(addr: NetAddress, banMs: number): void {
    const ka = this.known.get(addr.id);
    if (!ka) return;
    ka.lastBanMs = Date.now();
    ka.bannedUntilMs = Date.now() + banMs;
    this.dirty = true;
  }

  isBanned(id: string): boolean {
    const ka = this.known.get(id);
    return ka !== undefined && ka.bannedUntilMs > Date.now();
  }

  /** A random address to dial, preferring new ones `biasTowardsNew` percent of the time. */
  pickAddress(biasTowardsNew: number, exclude: (addr: NetAddress) => boolean): NetAddress | undefined {
    const candidates = [...this.known.values()].filter((ka) => ka.bannedUntilMs <= Date.now() && !exclude(ka.addr));
    if (candidates.length === 0) return undefined;
    const pickNew = Math.random() * 100 < biasTowardsNew;
    const preferred = candidates.filter((ka) => (ka.bucketType === BUCKET_TYPE_NEW) === pickNew);
    const pool = preferred.length > 0 ? preferred : candidates;
    // Back off addresses that keep failing: skip with probability growing with attempts.
    const ready = pool.filter((ka) => ka.attempts === 0 || Date.now() - ka.lastAttemptMs > Math.min(2 ** ka.attempts, 3600) * 1000);
    const from = ready.length > 0 ? ready : [];
    if (from.length === 0) return undefined;
    return { ...from[Math.floor(Math.random() * from.length)]!.addr };
  }

  /** A random selection of known, shareable addresses (GetSelection). */
  getSelection(): NetAddress[] {
    const all = [...this.known.values()].filter((ka) => !this.privateIds.has(ka.addr.id) && ka.bannedUntilMs <= Date.now()).map((ka) => ka.addr);
    let count = Math.max(Math.min(MIN_GET_SELECTION, all.length), Math.floor((all.length * GET_SELECTION_PERCENT) / 100));
    count = Math.min(count, MAX_GET_SELECTION);
    for (let i = all.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [all[i], all[j]] = [all[j]!, all[i]!];
    }
    return all.slice(0, count).map((a) => ({ ...a }));
  }

  listAll(): NetAddress[] {
    return [...this.known.values()].map((ka) => ({ ...ka.addr }));
  }

  private load(): void {
    const path = this.options.filePath;
    if (!path || !existsSync(path)) return;
    try {
      const json = JSON.parse(readFileSync(path, 'utf8')) as { addrs?: { addr: FileAddress; src: FileAddress; attempts?: number; bucket_type?: number; last_attempt?: string; last_success?: string; last_ban_time?: string }[] };
      for (const entry of json.addrs ?? []) {
        const addr = { id: entry.addr.id, host: entry.addr.ip, port: entry.addr.port };
        if (this.rejection(addr)) continue;
        const lastBanMs = msOf(entry.last_ban_time);
        this.known.set(addr.id, {
          addr,
          src: { id: entry.src?.id ?? '', host: entry.src?.ip ?? '', port: entry.src?.port ?? 0 },
          attempts: entry.attempts ?? 0,
          bucketType: entry.bucket_type === BUCKET_TYPE_OLD ? BUCKET_TYPE_OLD : BUCKET_TYPE_NEW,
          lastAttemptMs: msOf(entry.last_attempt),
          lastSuccessMs: msOf(entry.last_success),
          lastBanMs,
          bannedUntilMs: 0,
        });
      }
    } catch (err) {
      this.logger.error('cannot read the address book; starting with an empty one', { file: path, err: (err as Error).message });
    }
  }

  /** Write config/addrbook.json when something changed. */
  save(): void {
    const path = this.options.filePath;
    if (!path || !this.dirty) return;
    const file = (a: NetAddress): FileAddress => ({ id: a.id, ip: a.host, port: a.port });
    const json = {
      key: this.key,
      addrs: [...this.known.values()].map((ka) => ({
        addr: file(ka.addr),
        src: file(ka.src),
        buckets: [0],
        attempts: ka.attempts,
        bucket_type: ka.bucketType,
        last_attempt: timeOf(ka.lastAttemptMs),
        last_success: timeOf(ka.lastSuccessMs),
        last_ban_time: timeOf(ka.lastBanMs),
      })),
    };
    try {
      writeFileAtomicSync(path, JSON.stringify(json, null, 2), 0o644);
      this.dirty = false;
    } catch (err) {
      this.logger.error('cannot save the address book', { file: path, err: (err as Error).message });
    }
  }
}
