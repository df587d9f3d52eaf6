/**
 * Peer addresses (p2p/netaddress.go): `id@host:port`, where id is the 40-hex-digit node ID
 * (lowercase hex of the first 20 bytes of SHA-256 of the node's ed25519 key) and host an IP or a
 * DNS name. A `tcp://` (or any `scheme://`) prefix is ignored. Routability follows CometBFT:
 * private, link-local, loopback and documentation ranges are not routable, and with
 * `addr_book_strict = true` such addresses are not kept in the address book.
 */
import { isIP } from 'node:net';
import { P2PError } from './errors.js';

export const NODE_ID_HEX_LENGTH = 40;

export interface NetAddress {
  /** Node ID (lowercase hex); '' for an address without one (a listen address). */
  id: string;
  /** IP literal or DNS name, as configured. */
  host: string;
  port: number;
}

export function validateNodeId(id: string): void {
  if (id.length === 0) throw new P2PError('INVALID_ADDRESS', 'no ID');
  if (!/^[0-9a-fA-F]*$/.test(id) || id.length % 2 !== 0) throw new P2PError('INVALID_ADDRESS', `invalid node ID "${id}": not hex`);
  if (id.length !== NODE_ID_HEX_LENGTH) {
    throw new P2PError('INVALID_ADDRESS', `invalid node ID "${id}": invalid hex length - got ${id.length / 2}, expected ${NODE_ID_HEX_LENGTH / 2}`);
  }
}

function stripScheme(addr: string): string {
  const i = addr.indexOf('://');
  return i >= 0 ? addr.slice(i + 3) : addr;
}

function splitHostPort(text: string, original: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]*)):(\d+)$/.exec(text);
  if (!m) throw new P2PError('INVALID_ADDRESS', `invalid address "${original}": expected host:port`);
  const host = m[1] ?? m[2] ?? '';
  if (host.length === 0) throw new P2PError('INVALID_ADDRESS', `invalid address "${original}": host is empty`);
  const port = Number(m[3]);
  if (!Number.isInteger(port) || port > 65535) throw new P2PError('INVALID_ADDRESS', `invalid address "${original}": port ${m[3]} out of range`);
  if (m[1] !== undefined && isIP(host) !== 6) throw new P2PError('INVALID_ADDRESS', `invalid address "${original}": "${host}" is not an IPv6 address`);
  if (m[2] !== undefined && !/^[A-Za-z0-9.-]+$/.test(host)) throw new P2PError('INVALID_ADDRESS', `invalid address "${original}": bad host "${host}"`);
  return { host, port };
}

/** Parse `id@host:port` (NewNetAddressString). */
export function parseNetAddress(addr: string): NetAddress {
  const text = stripScheme(addr.trim());
  const parts = text.split('@');
  if (parts.length !== 2) throw new P2PError('INVALID_ADDRESS', `address (${addr}) does not contain ID`, { hint: 'use id@host:port (the id is `tokend tendermint show-node-id` of that node)' });
  const [id, hostPort] = parts as [string, string];
  try {
    validateNodeId(id);
  } catch (err) {
    throw new P2PError('INVALID_ADDRESS', `invalid address (${addr}): ${(err as Error).message}`);
  }
  const { host, port } = splitHostPort(hostPort, addr);
  return { id: id.toLowerCase(), host, port };
}

/** Parse a listen address `tcp://host:port` or `host:port` (no ID). */
export function parseListenAddress(laddr: string): { host: string; port: number } {
  const text = stripScheme(laddr.trim());
  const m = /^(?:\[([^\]]+)\]|([^:[\]]*)):(\d+)$/.exec(text);
  if (!m) throw new P2PError('INVALID_ADDRESS', `invalid listen address "${laddr}"`, { hint: 'use tcp://host:port, e.g. tcp://0.0.0.0:26656' });
  const host = m[1] ?? m[2] ?? '';
  const port = Number(m[3]);
  if (port > 65535) throw new P2PError('INVALID_ADDRESS', `invalid listen address "${laddr}": port out of range`);
  return { host: host === '' ? '0.0.0.0' : host, port };
}

/** A comma-separated list of `id@host:port` (persistent_peers, seeds); empty entries are skipped. */
export function parseNetAddressList(list: string, setting: string): NetAddress[] {
  const out: NetAddress[] = [];
  for (const item of list.split(',').map((s) => s.trim())) {
    if (item === '') continue;
    try {
      out.push(parseNetAddress(item));
    } catch (err) {
      throw new P2PError('INVALID_ADDRESS', `config.toml p2p.${setting}: ${(err as Error).message}`, { hint: 'use a comma-separated list of id@host:port' });
    }
  }
  return out;
}

/** Comma-separated node IDs (private_peer_ids, unconditional_peer_ids). */
export function parseNodeIdList(list: string, setting: string): string[] {
  const out: string[] = [];
  for (const item of list.split(',').map((s) => s.trim())) {
    if (item === '') continue;
    try {
      validateNodeId(item);
    } catch (err) {
      throw new P2PError('INVALID_ADDRESS', `config.toml p2p.${setting}: ${(err as Error).message}`);
    }
    out.push(item.toLowerCase());
  }
  return out;
}

export function formatNetAddress(addr: NetAddress): string {
  const host = isIP(addr.host) === 6 ? `[${addr.host}]` : addr.host;
  return addr.id ? `${addr.id}@${host}:${addr.port}` : `${host}:${addr.port}`;
}

export function sameAddress(a: NetAddress, b: NetAddress): boolean {
  return a.id === b.id && a.host === b.host && a.port === b.port;
}

function ipv4Octets(ip: string): number[] | undefined {
  if (isIP(ip) !== 4) return undefined;
  return ip.split('.').map(Number);
}

function ipv4In(octets: number[], base: [number, number, number, number], bits: number): boolean {
  const a = ((octets[0]! << 24) | (octets[1]! << 16) | (octets[2]! << 8) | octets[3]!) >>> 0;
  const b = ((base[0] << 24) | (base[1] << 16) | (base[2] << 8) | base[3]) >>> 0;
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return (a & mask) === (b & mask);
}

/** An IPv4-mapped IPv6 address as IPv4 ("::ffff:10.0.0.1" → "10.0.0.1"). */
export function normalizeIp(ip: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return m ? m[1]! : ip;
}

/** Valid: a usable unicast IP (not unspecified, broadcast or documentation range). */
export function isValidIp(ip: string): boolean {
  const v4 = ipv4Octets(normalizeIp(ip));
  if (v4) {
    if (v4.every((o) => o === 0) || v4.every((o) => o === 255)) return false;
    if (ipv4In(v4, [192, 0, 2, 0], 24) || ipv4In(v4, [198, 51, 100, 0], 24) || ipv4In(v4, [203, 0, 113, 0], 24)) return false;
    return true;
  }
  if (isIP(ip) !== 6) return false;
  const lower = ip.toLowerCase();
  if (lower === '::') return false;
  if (lower.startsWith('2001:db8:') || lower.startsWith('2001:0db8:')) return false; // RFC 3849
  return true;
}

/** Routable on the public internet (Routable): not private, link-local, loopback or unique-local. */
export function isRoutableIp(ip: string): boolean {
  if (!isValidIp(ip)) return false;
  const v4 = ipv4Octets(normalizeIp(ip));
  if (v4) {
    if (ipv4In(v4, [10, 0, 0, 0], 8) || ipv4In(v4, [172, 16, 0, 0], 12) || ipv4In(v4, [192, 168, 0, 0], 16)) return false; // RFC 1918
    if (ipv4In(v4, [169, 254, 0, 0], 16)) return false; // RFC 3927
    if (ipv4In(v4, [127, 0, 0, 0], 8) || ipv4In(v4, [0, 0, 0, 0], 8)) return false; // local
    return true;
  }
  const lower = ip.toLowerCase();
  if (lower === '::1') return false;
  if (/^fe[89ab]/.test(lower)) return false; // RFC 4862 link-local
  if (/^f[cd]/.test(lower)) return false; // RFC 4193 unique local
  if (lower.startsWith('2001:1') && /^2001:1[0-9a-f]:/.test(lower)) return false; // RFC 4843 ORCHID
  return true;
}
