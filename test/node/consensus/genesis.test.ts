import { describe, expect, it } from '@jest/globals';
import { parseGenesisDoc } from '../../../src/node/consensus/types/genesis.js';
import { toHexUpper } from '../../../src/node/consensus/types/bytes.js';
import { formatRfc3339Nano } from '../../../src/node/consensus/types/time.js';
import { makeGenesisState } from '../../../src/node/consensus/state/chainState.js';

const PUBKEY = 'lObsKbC7kCTVVWgmCD9sMA6tPszsTh6nkE8DOgXNw1s=';

const sdkGenesis = {
  app_name: 'tokend',
  app_version: '0.1.0',
  genesis_time: '2024-05-06T07:08:09.123456789Z',
  chain_id: 'testnet',
  initial_height: 1,
  app_hash: null,
  app_state: { bank: { balances: [{ address: 'token1abc', coins: [{ denom: 'attotoken', amount: '1000000000000000000000' }] }] }, n: '__BIG__' },
  consensus: {
    validators: [{ address: '', pub_key: { type: 'tendermint/PubKeyEd25519', value: PUBKEY }, power: '100', name: 'val0' }],
    params: {
      block: { max_bytes: '22020096', max_gas: '-1' },
      evidence: { max_age_num_blocks: '100000', max_age_duration: '172800000000000', max_bytes: '1048576' },
      validator: { pub_key_types: ['ed25519'] },
      version: { app: '0' },
      abci: { vote_extensions_enable_height: '0' },
    },
  },
};

const cometGenesis = {
  genesis_time: '2024-05-06T07:08:09Z',
  chain_id: 'comet-chain',
  initial_height: '5',
  consensus_params: { block: { max_bytes: '1048576', max_gas: '10000000' }, evidence: { max_age_num_blocks: '10', max_age_duration: '48h0m0s', max_bytes: '1000' } },
  validators: [{ pub_key: { type: 'tendermint/PubKeyEd25519', value: PUBKEY }, power: '7', name: 'v' }],
  app_hash: 'ABCD',
  app_state: {},
};

function parseWith(base: object, patch: (g: Record<string, unknown>) => void): () => unknown {
  const g = structuredClone(base) as Record<string, unknown>;
  patch(g);
  return () => parseGenesisDoc(JSON.stringify(g));
}

describe('genesis doc', () => {
  it('reads the SDK 0.50 layout (consensus.validators/params, numeric initial_height)', () => {
    const text = JSON.stringify(sdkGenesis, null, 2).replace('"__BIG__"', '123456789012345678901234567890');
    const doc = parseGenesisDoc(text);
    expect(doc.layout).toBe('sdk');
    expect(doc.chainId).toBe('testnet');
    expect(doc.initialHeight).toBe(1);
    expect(formatRfc3339Nano(doc.genesisTime)).toBe('2024-05-06T07:08:09.123456789Z');
    expect(doc.validators).toHaveLength(1);
    expect(doc.validators[0]!.power).toBe(100n);
    expect(doc.validators[0]!.address).toHaveLength(20);
    expect(doc.consensusParams.block.maxBytes).toBe(22020096n);
    expect(doc.appHash).toHaveLength(0);
    expect(doc.appName).toBe('tokend');
    // app_state is passed through byte for byte (no number rounding).
    expect(doc.appStateJson).toContain('123456789012345678901234567890');
    expect(JSON.parse(doc.appStateJson)).toHaveProperty('bank');
  });

  it('reads the CometBFT layout (string initial_height, hex app_hash, Go durations)', () => {
    const doc = parseGenesisDoc(JSON.stringify(cometGenesis));
    expect(doc.layout).toBe('cometbft');
    expect(doc.initialHeight).toBe(5);
    expect(toHexUpper(doc.appHash)).toBe('ABCD');
    expect(doc.consensusParams.block.maxGas).toBe(10000000n);
    expect(doc.consensusParams.evidence.maxAgeDurationNs).toBe(172800000000000n);
    // Sections not given take the defaults.
    expect(doc.consensusParams.validator.pubKeyTypes).toEqual(['ed25519']);
    const state = makeGenesisState(doc);
    expect(state.initialHeight).toBe(5);
    expect(state.validators.totalVotingPower()).toBe(7n);
    expect(toHexUpper(state.appHash)).toBe('ABCD');
  });

  it('initial_height 0 means 1; missing consensus params are the defaults', () => {
    const doc = parseGenesisDoc(JSON.stringify({ chain_id: 'c', genesis_time: '2024-01-01T00:00:00Z', initial_height: '0' }));
    expect(doc.initialHeight).toBe(1);
    expect(doc.consensusParams.block.maxBytes).toBe(22020096n);
    expect(doc.validators).toEqual([]);
    expect(doc.appStateJson).toBe('');
  });

  it('names the problem in validation errors', () => {
    expect(parseWith(sdkGenesis, (g) => (g['chain_id'] = ''))).toThrow('genesis doc must include non-empty chain_id');
    expect(parseWith(sdkGenesis, (g) => (g['chain_id'] = 'x'.repeat(51)))).toThrow('chain_id in genesis doc is too long (max: 50, got 51)');
    expect(parseWith(sdkGenesis, (g) => (g['genesis_time'] = 'yesterday'))).toThrow('genesis_time "yesterday" is not a valid RFC 3339 time');
    expect(parseWith(sdkGenesis, (g) => (g['initial_height'] = -1))).toThrow('initial_height cannot be negative (got -1)');
    expect(parseWith(cometGenesis, (g) => ((g['validators'] as { power: string }[])[0]!.power = '0'))).toThrow('validators[0].power must be greater than 0 (got 0)');
    expect(parseWith(sdkGenesis, (g) => (((g['consensus'] as Record<string, unknown>)['validators'] as { power: string }[])[0]!.power = '-5'))).toThrow(
      'consensus.validators[0].power must be greater than 0 (got -5)',
    );
    expect(parseWith(cometGenesis, (g) => ((g['validators'] as { pub_key: { type: string } }[])[0]!.pub_key.type = 'tendermint/PubKeyBls'))).toThrow(
      'validators[0].pub_key.type "tendermint/PubKeyBls" is not a supported key type',
    );
    expect(parseWith(cometGenesis, (g) => ((g['validators'] as { pub_key: { value: string } }[])[0]!.pub_key.value = 'AAAA'))).toThrow('must be a 32-byte ed25519 key, got 3 bytes');
    expect(parseWith(cometGenesis, (g) => ((g['validators'] as { address: string }[])[0]!.address = '00'.repeat(20)))).toThrow('incorrect address for validator 0');
    expect(parseWith(cometGenesis, (g) => ((g['consensus_params'] as { block: { max_bytes: string } }).block.max_bytes = '0'))).toThrow('invalid consensus_params: block.MaxBytes cannot be 0');
    expect(parseWith(cometGenesis, (g) => (g['app_hash'] = 'xyz'))).toThrow('app_hash "xyz" is not hex');
    expect(() => parseGenesisDoc('{not json')).toThrow(/genesis file is not valid JSON/);
    expect(parseWith(cometGenesis, (g) => (g['validators'] = [(g['validators'] as unknown[])[0], (g['validators'] as unknown[])[0]]))).toThrow(/duplicate validator/);
  });
});
