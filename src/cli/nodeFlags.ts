/** Flags shared by commands that talk to a node or sign transactions. */
import { Flags } from '@oclif/core';

export const nodeFlag = {
  node: Flags.string({ description: '<host>:<port> of the consensus RPC (default from client.toml, else tcp://localhost:26657)', helpGroup: 'GLOBAL' }),
};

export const queryFlags = {
  ...nodeFlag,
  height: Flags.integer({ description: 'Query the state at this height (default latest)', min: 0 }),
};

export const chainIdFlag = {
  'chain-id': Flags.string({ description: 'The chain id (default from client.toml, else testnet)', helpGroup: 'GLOBAL' }),
};
