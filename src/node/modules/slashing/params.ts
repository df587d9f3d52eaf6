/** x/slashing params: the SDK's defaults and validation. Decimals are bytes of the scaled integer's text. */
import { create } from '@bufbuild/protobuf';
import { DurationSchema } from '@bufbuild/protobuf/wkt';
import { ParamsSchema, type Params } from '../../../gen/cosmos/slashing/v1beta1/slashing_pb.js';
import { DEC_ONE, type Dec } from '../shared/dec.js';

export type SlashingParams = Params;

export function decBytes(value: Dec): Uint8Array {
  return new TextEncoder().encode(value.toString());
}

export function decOfBytes(bytes: Uint8Array): Dec {
  const text = new TextDecoder().decode(bytes);
  return text === '' ? 0n : BigInt(text);
}

export function defaultSlashingParams(): SlashingParams {
  return create(ParamsSchema, {
    signedBlocksWindow: 100n,
    minSignedPerWindow: decBytes(DEC_ONE / 2n),
    downtimeJailDuration: create(DurationSchema, { seconds: 600n, nanos: 0 }),
    slashFractionDoubleSign: decBytes(DEC_ONE / 20n),
    slashFractionDowntime: decBytes(DEC_ONE / 100n),
  });
}

export function validateSlashingParams(params: SlashingParams): string[] {
  const problems: string[] = [];
  if (params.signedBlocksWindow <= 0n) problems.push(`signed blocks window must be positive: ${params.signedBlocksWindow}`);
  const checks: [string, Uint8Array][] = [
    ['min signed per window', params.minSignedPerWindow],
    ['double sign slash fraction', params.slashFractionDoubleSign],
    ['downtime slash fraction', params.slashFractionDowntime],
  ];
  for (const [name, bytes] of checks) {
    let value: Dec;
    try {
      value = decOfBytes(bytes);
    } catch {
      problems.push(`invalid ${name}`);
      continue;
    }
    if (value < 0n) problems.push(`${name} cannot be negative`);
    if (value > DEC_ONE) problems.push(`${name} too large`);
  }
  const jail = params.downtimeJailDuration;
  if (jail === undefined || jail.seconds < 0n || (jail.seconds === 0n && jail.nanos <= 0)) problems.push('downtime jail duration must be positive');
  return problems;
}
