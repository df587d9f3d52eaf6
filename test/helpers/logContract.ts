/**
 * A contract whose every call emits `n` Transfer-shaped logs: for i = n..1, LOG2 with topics
 * (Transfer(address,address,uint256), i) and i as 32 bytes of data. Hand-assembled (no solc) for
 * the eth_getLogs tests and benchmark.
 */
import { id as topicOf } from 'ethers';

export const TRANSFER_TOPIC = topicOf('Transfer(address,address,uint256)');

/** Runtime: PUSH2 n; loop: mem[0] = i; LOG2(0, 32, TRANSFER, i); i -= 1; jump while i != 0. */
export function logRuntime(n: number): string {
  if (!Number.isInteger(n) || n < 1 || n > 0xffff) throw new RangeError(`log count ${n} is not in 1..65535`);
  return `61${n.toString(16).padStart(4, '0')}5b8060005280` + `7f${TRANSFER_TOPIC.slice(2)}` + '60206000a2' + '600190038060035700';
}

/** Init code returning the runtime: PUSH2 len, DUP1, PUSH2 13, PUSH1 0, CODECOPY, PUSH1 0, RETURN (13 bytes). */
export function logContractInitCode(n: number): string {
  const code = logRuntime(n);
  const hex2 = (v: number) => v.toString(16).padStart(4, '0');
  return `0x61${hex2(code.length / 2)}8061${hex2(13)}6000396000f3${code}`;
}

/** The i-th counter topic (32-byte big-endian i). */
export function counterTopic(i: number): string {
  return `0x${i.toString(16).padStart(64, '0')}`;
}
