import { describe, expect, it } from '@jest/globals';
import { Hardfork, Mainnet, createCustomCommon } from '@ethereumjs/common';
import { commonFor } from '../../../../src/node/modules/evm/ethTx.js';

describe('the EVM Common', () => {
  it('answers isActivatedEIP as the library\'s Common does, for every fork, with and without extra EIPs', () => {
    const eips = Array.from({ length: 8200 }, (_, i) => i);
    let compared = 0;
    for (const fork of Object.values(Hardfork)) {
      for (const extra of [[], [3855], [1153, 5656]]) {
        let reference;
        try {
          reference = createCustomCommon({ chainId: 9000, name: 'tokend-9000' }, Mainnet, { hardfork: fork, eips: extra });
        } catch {
          continue; // a fork/EIP combination the library refuses
        }
        const ours = commonFor(9000n, fork, extra);
        expect(ours.hardfork()).toBe(reference.hardfork());
        expect(eips.filter((eip) => ours.isActivatedEIP(eip))).toEqual(eips.filter((eip) => reference.isActivatedEIP(eip)));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(40);
  });

  it('follows a hardfork change of a copy (the Set is rebuilt with the library\'s list)', () => {
    const copy = commonFor(9000n, 'london').copy();
    expect(copy.isActivatedEIP(1153)).toBe(false);
    copy.setHardfork('cancun');
    expect(copy.isActivatedEIP(1153)).toBe(true);
    expect(commonFor(9000n, 'london').isActivatedEIP(1153)).toBe(false);
  });
});
