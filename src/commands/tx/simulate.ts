import { Args } from '@oclif/core';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { NodeCommand } from '../../cli/nodeCommand.js';
import { nodeFlag } from '../../cli/nodeFlags.js';
import { TokendError } from '../../util/errors.js';
import type { JsonValue } from '../../node/client/query.js';

export default class TxSimulate extends NodeCommand<typeof TxSimulate, JsonValue> {
  static override summary = 'Simulate a transaction JSON file and print the gas it would use';
  static override description = 'Runs cosmos.tx.v1beta1.Service/Simulate on the node: no signature check, no minimum fee, the sequence is checked.';
  static override examples = ['<%= config.bin %> tx simulate unsigned.json'];
  static override args = { file: Args.string({ required: true, description: 'Tx JSON file ("-" for stdin)' }) };
  static override flags = { ...nodeFlag };

  async execute(): Promise<JsonValue> {
    const { readTxFile, txRawBytes } = await import('../../node/client/txFile.js');
    const tx = readTxFile(this.args.file);
    if (tx.signatures.length === 0) tx.signatures = (tx.authInfo?.signerInfos ?? []).map(() => new Uint8Array(0));
    const { Service, SimulateRequestSchema, SimulateResponseSchema } = await import('../../gen/cosmos/tx/v1beta1/service_pb.js');
    const { abciQueryError, methodPath } = await import('../../node/client/query.js');
    const { registry, toGatewayJson } = await import('../../node/codec/index.js');
    await import('../../node/app/modules.js'); // the modules' Msg responses, inside the result's Anys
    const path = methodPath(Service.method.simulate);
    const result = await (await this.rpc()).abciQuery({ path, data: toBinary(SimulateRequestSchema, create(SimulateRequestSchema, { txBytes: txRawBytes(tx) })) });
    if (result.response.code !== 0) {
      const err = abciQueryError(result.response, path);
      throw new TokendError('TX_FAILED', `simulation failed: ${err.message}`, { meta: err.meta });
    }
    const response = fromBinary(SimulateResponseSchema, Buffer.from(result.response.value ?? '', 'base64'));
    return toGatewayJson(SimulateResponseSchema, response, { registry }) as JsonValue;
  }
}
