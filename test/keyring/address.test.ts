import { getAddress } from 'ethers';
import {
  convertAddress,
  decodeBech32,
  decodeBech32Address,
  encodeBech32,
  parseAddress,
  parseHexAddress,
  toAccountAddress,
  toChecksumHex,
  toConsensusAddress,
  toValidatorOperatorAddress,
} from '../../src/keyring/address.js';
import { ACCOUNT_PREFIX, CONSENSUS_PREFIX, VALIDATOR_OPERATOR_PREFIX } from '../../src/keyring/prefixes.js';
import { ETH_VECTORS } from './vectors.js';

const JUNK = ETH_VECTORS[0];
const JUNK_BYTES = Uint8Array.from(Buffer.from(JUNK.hex.slice(2), 'hex'));

function thrown(fn: () => unknown): { code?: string; message: string; hint?: string } {
  try {
    fn();
  } catch (err) {
    return err as { code?: string; message: string; hint?: string };
  }
  throw new Error('expected an error');
}

test('prefixes', () => {
  expect([ACCOUNT_PREFIX, VALIDATOR_OPERATOR_PREFIX, CONSENSUS_PREFIX]).toEqual(['token', 'tokenvaloper', 'tokenvalcons']);
});

describe.each(ETH_VECTORS.map((vector) => [vector.token, vector] as const))('vector %s', (_token, vector) => {
  const bytes = Uint8Array.from(Buffer.from(vector.hex.slice(2), 'hex'));

  test('bech32 with our prefix ⇄ bytes ⇄ EIP-55', () => {
    expect(toAccountAddress(bytes)).toBe(vector.token);
    expect(decodeBech32Address(vector.token)).toEqual(bytes);
    expect(toChecksumHex(bytes)).toBe(vector.hex);
    expect(toChecksumHex(bytes)).toBe(getAddress(vector.hex.toLowerCase()));
  });

  test('the upstream ethm/cosmos strings decode to the same bytes', () => {
    for (const upstream of vector.upstream) expect(decodeBech32(upstream).data).toEqual(bytes);
  });
});

describe('bech32 errors (INVALID_ADDRESS naming the problem)', () => {
  test('bad checksum', () => {
    const err = thrown(() => decodeBech32Address(JUNK.token.slice(0, -1) + (JUNK.token.endsWith('q') ? 'p' : 'q')));
    expect(err.code).toBe('INVALID_ADDRESS');
    expect(err.message).toMatch(/bad checksum$/u);
  });

  test('wrong prefix names both', () => {
    const err = thrown(() => decodeBech32Address(JUNK.upstream[1]));
    expect(err.code).toBe('INVALID_ADDRESS');
    expect(err.message).toBe('wrong address prefix: expected token1…, got cosmos1…');
    expect(thrown(() => decodeBech32Address(toValidatorOperatorAddress(JUNK_BYTES))).message).toBe(
      'wrong address prefix: expected token1…, got tokenvaloper1…',
    );
  });

  test('wrong length', () => {
    const err = thrown(() => parseAddress(encodeBech32('token', new Uint8Array(33).fill(1))));
    expect(err.code).toBe('INVALID_ADDRESS');
    expect(err.message).toBe('wrong address length: expected 20 or 32 bytes, got 33');
    expect(thrown(() => parseAddress(encodeBech32('tokenvaloper', new Uint8Array(32).fill(1)))).message).toBe('wrong address length: expected 20 bytes, got 32');
  });

  test('an account address may be a 32-byte derived address (group policies)', () => {
    const derived = new Uint8Array(32).fill(7);
    expect(parseAddress(toAccountAddress(derived))).toEqual(derived);
  });

  test.each([
    ['', 'address is empty'],
    ['Token17w0adeg64ky0daxwd2ugyuneellmjgnxp6ktw2', 'mixes upper and lower case'],
    ['tokenaddress', 'no prefix followed by the separator "1"'],
    ['token17w0adeg64ky0daxwd2ugyuneellmjgnxp6ktwb', 'character "b" is not allowed'],
  ])('%j', (input, reason) => {
    const err = thrown(() => decodeBech32Address(input));
    expect(err.code).toBe('INVALID_ADDRESS');
    expect(err.message).toContain(reason);
  });

  test('an all-upper-case address is fine', () => {
    expect(decodeBech32Address(JUNK.token.toUpperCase())).toEqual(JUNK_BYTES);
  });
});

describe('hex addresses', () => {
  test('lower, upper, checksummed and bare forms', () => {
    expect(parseHexAddress(JUNK.hex)).toEqual(JUNK_BYTES);
    expect(parseHexAddress(JUNK.hex.toLowerCase())).toEqual(JUNK_BYTES);
    expect(parseHexAddress(`0x${JUNK.hex.slice(2).toUpperCase()}`)).toEqual(JUNK_BYTES);
    expect(parseHexAddress(JUNK.hex.slice(2).toLowerCase())).toEqual(JUNK_BYTES);
  });

  test('a bad mixed-case checksum is rejected', () => {
    const broken = JUNK.hex.replace('F6F4', 'f6F4');
    const err = thrown(() => parseHexAddress(broken));
    expect(err.code).toBe('INVALID_ADDRESS');
    expect(err.message).toContain('bad EIP-55 checksum');
  });

  test('wrong length and non-hex', () => {
    expect(thrown(() => parseHexAddress('0x1234')).message).toContain('expected 40 hex digits, got 4');
    expect(thrown(() => parseHexAddress(`0x${'g'.repeat(40)}`)).message).toContain('non-hexadecimal');
  });
});

describe('parseAddress / convertAddress', () => {
  test('parseAddress accepts every address form of ours', () => {
    for (const input of [
      JUNK.token,
      toValidatorOperatorAddress(JUNK_BYTES),
      toConsensusAddress(JUNK_BYTES),
      JUNK.hex,
      JUNK.hex.toLowerCase(),
    ]) {
      expect(parseAddress(input)).toEqual(JUNK_BYTES);
    }
    expect(thrown(() => parseAddress(JUNK.upstream[0])).message).toBe(
      'wrong address prefix: expected token1… or tokenvaloper1… or tokenvalcons1…, got ethm1…',
    );
  });

  test('bech32 → hex and all our forms; hex → all forms', () => {
    const fromBech32 = convertAddress(JUNK.token);
    expect(fromBech32.input).toEqual({ format: 'bech32', prefix: 'token' });
    expect(fromBech32.forms).toEqual({
      hex: JUNK.hex,
      bytes: 'F39FD6E51AAD88F6F4CE6AB8827279CFFFB92266',
      account: JUNK.token,
      validatorOperator: 'tokenvaloper17w0adeg64ky0daxwd2ugyuneellmjgnx9escau',
      consensus: 'tokenvalcons17w0adeg64ky0daxwd2ugyuneellmjgnx32ry3a',
    });
    const fromHex = convertAddress(JUNK.hex.toLowerCase());
    expect(fromHex.input).toEqual({ format: 'hex' });
    expect(fromHex.forms).toEqual(fromBech32.forms);
  });

  test('converts another chain’s address (carry-over), rejects pubkeys and bad checksums', () => {
    expect(convertAddress(JUNK.upstream[0]).forms.account).toBe(JUNK.token);
    expect(thrown(() => convertAddress(encodeBech32('tokenpub', new Uint8Array(38).fill(3)))).message).toBe('tokenpub1… is a public key, not an address');
    expect(thrown(() => convertAddress(`${JUNK.token.slice(0, -1)}q`)).code).toBe('INVALID_ADDRESS');
  });
});
