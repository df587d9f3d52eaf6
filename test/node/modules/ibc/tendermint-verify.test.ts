/**
 * 07-tendermint header verification under CometBFT's light-client rules, with headers really
 * signed (ed25519, @noble/curves) by a test validator set: adjacent and non-adjacent updates,
 * a changed validator set with the trust level met and not met, an expired trusting period, a
 * header from beyond the clock drift, too little signing power, and the trusted validators
 * not matching the trusted consensus state.
 */
import { abciInfo } from '../../../../src/node/modules/shared/errors.js';
import { checkValidity, headerError } from '../../../../src/node/modules/ibc/lightclients/tendermint/client.js';
import { consensusStateOf, height, ibcHeader, signBlock, testClientState, testValidator, validatorSetOf, type SignedBlock, type TestValidator } from '../../../helpers/ibcHeaders.js';

const CHAIN = 'chainb-1';
const T0 = 1_700_000_000;
const NS = 1_000_000_000n;
const vals = ['a', 'b', 'c', 'd'].map((seed) => testValidator(seed, 10n));
const set = validatorSetOf(vals);

function block(h: number, signers: readonly TestValidator[] = vals, validators = set, nextValidators = validators, seconds = T0 + h * 5): SignedBlock {
  return signBlock({ chainId: CHAIN, height: h, time: { seconds, nanos: 0 }, validators, nextValidators, signers });
}

const trusted = block(10);
const trustedCons = consensusStateOf(trusted);
const clientState = testClientState(CHAIN, height(1n, 10n));
const nowNs = BigInt(T0 + 200) * NS;

function verify(header: ReturnType<typeof ibcHeader>, now = nowNs, cs = clientState, cons = trustedCons): void {
  const basic = headerError(header);
  if (basic !== undefined) throw basic;
  checkValidity(cs, cons, header, now);
}

function failure(run: () => void): { codespace: string; code: number; log: string } {
  try {
    run();
  } catch (err) {
    return abciInfo(err);
  }
  throw new Error('expected the verification to fail');
}

describe('07-tendermint header verification', () => {
  it('accepts an adjacent header signed by the trusted next validators', () => {
    expect(() => verify(ibcHeader(block(11), height(1n, 10n), set))).not.toThrow();
  });

  it('accepts a non-adjacent header whose set changed while over 1/3 of the trusted power signed it', () => {
    // Two of the four trusted validators stay (20/40 > 1/3) and two newcomers join.
    const next = [vals[0]!, vals[1]!, testValidator('e', 10n), testValidator('f', 10n)];
    const nextSet = validatorSetOf(next);
    expect(() => verify(ibcHeader(block(20, next, nextSet), height(1n, 10n), set))).not.toThrow();
  });

  it('refuses a non-adjacent header when the trusted validators that signed it hold only 1/4 of the power', () => {
    const next = [vals[0]!, testValidator('e', 10n), testValidator('f', 10n), testValidator('g', 10n)];
    const nextSet = validatorSetOf(next);
    const info = failure(() => verify(ibcHeader(block(20, next, nextSet), height(1n, 10n), set)));
    expect(info.codespace).toBe('client');
    expect(info.code).toBe(12);
    expect(info.log).toContain('cant trust new val set: invalid commit -- insufficient voting power: got 10, needed more than 13');
  });

  it('refuses a header signed by 2/3 or less of its own validators', () => {
    const info = failure(() => verify(ibcHeader(block(11, vals.slice(0, 2)), height(1n, 10n), set)));
    expect([info.codespace, info.code]).toEqual(['client', 12]);
    expect(info.log).toContain('invalid commit -- insufficient voting power: got 20, needed more than 26');
  });

  it('refuses an adjacent header whose validators are not the trusted next validators', () => {
    const other = [testValidator('x', 10n), testValidator('y', 10n), testValidator('z', 10n), testValidator('w', 10n)];
    const otherSet = validatorSetOf(other);
    const info = failure(() => verify(ibcHeader(block(11, other, otherSet), height(1n, 10n), set)));
    expect(info.log).toContain('to match those from new header');
  });

  it('refuses a header when the trusted consensus state is past the trusting period', () => {
    const later = BigInt(T0 + 50) * NS + 14n * 86_400n * NS;
    const info = failure(() => verify(ibcHeader(block(11), height(1n, 10n), set), later));
    expect([info.codespace, info.code]).toEqual(['client', 12]);
    expect(info.log).toContain('old header has expired');
  });

  it('refuses a header from further in the future than the max clock drift', () => {
    const future = block(11, vals, set, set, T0 + 200 + 21);
    const info = failure(() => verify(ibcHeader(future, height(1n, 10n), set)));
    expect(info.log).toContain('new header has a time from the future');
    // Within the drift it is fine.
    expect(() => verify(ibcHeader(block(11, vals, set, set, T0 + 200 + 19), height(1n, 10n), set))).not.toThrow();
  });

  it('refuses trusted validators that do not hash to the trusted next validators hash', () => {
    const otherSet = validatorSetOf([testValidator('x', 10n)]);
    const info = failure(() => verify(ibcHeader(block(11), height(1n, 10n), otherSet)));
    expect([info.codespace, info.code]).toEqual(['07-tendermint', 14]);
  });

  it('refuses a header whose signature was tampered with', () => {
    const tampered = block(11);
    tampered.commit.signatures[0]!.signature = new Uint8Array(tampered.commit.signatures[0]!.signature);
    tampered.commit.signatures[0]!.signature[5]! ^= 1;
    const info = failure(() => verify(ibcHeader(tampered, height(1n, 10n), set)));
    expect(info.log).toContain('wrong signature (#');
  });

  it('refuses a header of another chain, and one not above its trusted height', () => {
    const foreign = signBlock({ chainId: 'chainc-1', height: 11, time: { seconds: T0 + 55, nanos: 0 }, validators: set, nextValidators: set, signers: vals });
    expect(failure(() => verify(ibcHeader(foreign, height(1n, 10n), set))).log).toContain('header belongs to another chain');
    const info = failure(() => verify(ibcHeader(block(10), height(1n, 10n), set)));
    expect([info.codespace, info.code]).toEqual(['07-tendermint', 5]);
  });
});
