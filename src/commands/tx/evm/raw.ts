import { Args, Flags } from '@oclif/core';
import { NodeCommand } from '../../../cli/nodeCommand.js';
import { nodeFlag } from '../../../cli/nodeFlags.js';
import { BROADCAST_MODES } from '../../../node/config/client.js';
import { TokendError } from '../../../util/errors.js';
import type { TxResponseJson } from '../../../node/client/txResponse.js';

export default class TxEvmRaw extends NodeCommand<typeof TxEvmRaw, TxResponseJson> {
  static override summary = 'Broadcast a signed Ethereum transaction (RLP hex) wrapped in a MsgEthereumTx';
  static override examples = ['<%= config.bin %> tx evm raw 0xf86c808504a817c800825208… --evm-chain-id 9000'];
  static override args = { hex: Args.string({ required: true, description: 'The signed transaction, 0x-prefixed RLP hex' }) };
  static override flags = {
    ...nodeFlag,
    'evm-chain-id': Flags.string({ description: 'EIP-155 chain id (default: N of a name_N-V chain id, else 9000)' }),
    denom: Flags.string({ description: 'The EVM denom the fee is stated in', default: 'attotoken' }),
    'broadcast-mode': Flags.option({ char: 'b', options: BROADCAST_MODES, description: 'sync | async | block' })(),
  };

  async execute(): Promise<TxResponseJson> {
    const hex = this.args.hex;
    if (!/^0x([0-9a-fA-F]{2})+$/.test(hex)) throw new TokendError('INVALID_ARGUMENT', 'the transaction must be 0x-prefixed hex');
    const { commonFor, cosmosTxBytes, recoverSender, txFromRaw } = await import('../../../node/modules/evm/ethTx.js');
    const { eip155ChainId } = await import('../../../node/modules/evm/params.js');
    const config = this.clientConfig({ 'broadcast-mode': this.flags['broadcast-mode'] });
    const text = this.flags['evm-chain-id'];
    if (text !== undefined && !/^[0-9]+$/.test(text)) throw new TokendError('INVALID_ARGUMENT', `invalid --evm-chain-id "${text}"`);
    const chainId = text !== undefined ? BigInt(text) : eip155ChainId(config['chain-id'], undefined);
    let bytes: Uint8Array;
    try {
      const tx = txFromRaw(new Uint8Array(Buffer.from(hex.slice(2), 'hex')), commonFor(chainId, 'cancun'));
      bytes = cosmosTxBytes(tx, `0x${Buffer.from(recoverSender(tx)).toString('hex')}`, this.flags.denom);
    } catch (err) {
      throw new TokendError('INVALID_ARGUMENT', (err as Error).message);
    }
    const { broadcastTxBytes } = await import('../../../node/client/broadcast.js');
    return broadcastTxBytes(await this.rpc(), bytes, config['broadcast-mode']);
  }

  protected override async print(result: TxResponseJson): Promise<void> {
    await super.print(result);
    if (result.code !== 0) throw new TokendError('TX_FAILED', `tx ${result.txhash} failed with code ${result.code} (${result.codespace || 'sdk'}): ${result.raw_log}`);
  }
}
