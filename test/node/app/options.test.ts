/** App options: defaults, app.toml mapping, clear errors for bad values. */
import { appOptionsFromAppToml, defaultAppOptions, resolveAppOptions } from '../../../src/node/app/index.js';
import { TokendError } from '../../../src/util/errors.js';

describe('app options', () => {
  test('app.toml values map onto the options', () => {
    const options = appOptionsFromAppToml({ minimumGasPrices: '0.025attotoken', pruning: 'custom', pruningKeepRecent: 100, pruningInterval: 10, haltHeight: 50, indexEvents: ['transfer.recipient'] });
    expect(options).toMatchObject({ minGasPrices: '0.025attotoken', haltHeight: 50, indexEvents: ['transfer.recipient'], pruning: { strategy: 'custom', keepRecent: 100, interval: 10 } });
    expect(defaultAppOptions.minGasPrices).toBe('');
  });

  test('bad minimum gas prices and halt height are configuration errors', () => {
    expect(() => resolveAppOptions({ minGasPrices: '5' })).toThrow(TokendError);
    expect(() => resolveAppOptions({ minGasPrices: '5' })).toThrow('invalid minimum-gas-prices "5": invalid decimal coin expression: 5: invalid coins');
    expect(() => resolveAppOptions({ haltHeight: -1 })).toThrow('halt-height must be a non-negative integer, got -1');
    expect(() => appOptionsFromAppToml({ minimumGasPrices: '', pruning: 'sometimes', pruningKeepRecent: 0, pruningInterval: 0, haltHeight: 0, indexEvents: [] })).toThrow('unknown pruning strategy sometimes');
  });
});
