/**
 * Amino JSON of the upgrade messages and proposal contents (what LEGACY_AMINO_JSON signers sign,
 * e.g. a gov proposal carrying them): the SDK's names, and the plan's zero `time` always written
 * (gogoproto non-nullable + amino.dont_omitempty), as Go's amino JSON of SDK 0.47 does.
 */
import { describe, expect, test } from '@jest/globals';
import { create, toBinary, type DescMessage } from '@bufbuild/protobuf';
import { AnySchema } from '@bufbuild/protobuf/wkt';
import { MsgCancelUpgradeSchema, MsgSoftwareUpgradeSchema } from '../../../../src/gen/cosmos/upgrade/v1beta1/tx_pb.js';
import { CancelSoftwareUpgradeProposalSchema, PlanSchema, SoftwareUpgradeProposalSchema } from '../../../../src/gen/cosmos/upgrade/v1beta1/upgrade_pb.js';
import { AminoJsonEncoder } from '../../../../src/node/codec/aminoJson.js';
import { protoRegistry } from '../../../../src/node/codec/files.js';

const encoder = new AminoJsonEncoder({ registry: protoRegistry });
const GOV = 'token10d07y265gmmuvt4z0w9aw880jnsr700jw69pf6';

function any(schema: DescMessage, init: Record<string, unknown>): ReturnType<typeof create<typeof AnySchema>> {
  return create(AnySchema, { typeUrl: `/${schema.typeName}`, value: toBinary(schema, create(schema, init as never)) });
}

describe('amino JSON of x/upgrade', () => {
  test('MsgSoftwareUpgrade and MsgCancelUpgrade', () => {
    const plan = create(PlanSchema, { name: 'v2', height: 100n, info: 'x' });
    expect(JSON.parse(encoder.encodeAny(any(MsgSoftwareUpgradeSchema, { authority: GOV, plan })))).toEqual({
      type: 'cosmos-sdk/MsgSoftwareUpgrade',
      value: { authority: GOV, plan: { name: 'v2', time: '0001-01-01T00:00:00Z', height: '100', info: 'x' } },
    });
    expect(JSON.parse(encoder.encodeAny(any(MsgCancelUpgradeSchema, { authority: GOV })))).toEqual({ type: 'cosmos-sdk/MsgCancelUpgrade', value: { authority: GOV } });
  });

  test('the legacy proposal contents', () => {
    const plan = create(PlanSchema, { name: 'v2', height: 100n });
    expect(JSON.parse(encoder.encodeAny(any(SoftwareUpgradeProposalSchema, { title: 't', description: 'd', plan })))).toEqual({
      type: 'cosmos-sdk/SoftwareUpgradeProposal',
      value: { title: 't', description: 'd', plan: { name: 'v2', time: '0001-01-01T00:00:00Z', height: '100' } },
    });
    expect(JSON.parse(encoder.encodeAny(any(CancelSoftwareUpgradeProposalSchema, { title: 't', description: 'd' })))).toEqual({
      type: 'cosmos-sdk/CancelSoftwareUpgradeProposal',
      value: { title: 't', description: 'd' },
    });
  });
});
