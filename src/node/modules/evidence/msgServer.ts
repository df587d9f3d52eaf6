/** cosmos.evidence.v1beta1.Msg: SubmitEvidence (an Equivocation; other evidence types have no handler). */
import { create } from '@bufbuild/protobuf';
import { EquivocationSchema } from '../../../gen/cosmos/evidence/v1beta1/evidence_pb.js';
import { Msg, MsgSubmitEvidenceResponseSchema } from '../../../gen/cosmos/evidence/v1beta1/tx_pb.js';
import { anyUnpackAs } from '../../codec/index.js';
import { parseAccAddress } from '../shared/address.js';
import type { Context } from '../shared/context.js';
import { SdkErrors } from '../shared/errors.js';
import { msgRoute, type MsgRoute } from '../shared/module.js';
import { EvidenceErrors } from './errors.js';
import { equivocationProblem, type EvidenceKeeper } from './keeper.js';

export function evidenceMsgRoutes(keeper: EvidenceKeeper): MsgRoute[] {
  return [
    msgRoute(Msg.method.submitEvidence, async (ctx: Context, msg) => {
      const submitter = parseAccAddress(msg.submitter);
      if (!submitter.ok) throw SdkErrors.InvalidAddress.wrap(`invalid submitter address: ${submitter.error}`);
      if (msg.evidence === undefined) throw EvidenceErrors.InvalidEvidence.wrap('missing evidence');
      if (msg.evidence.typeUrl !== `/${EquivocationSchema.typeName}`) throw EvidenceErrors.NoEvidenceHandlerExists.wrap(msg.evidence.typeUrl);
      let evidence;
      try {
        evidence = anyUnpackAs(msg.evidence, EquivocationSchema);
      } catch (err) {
        throw EvidenceErrors.InvalidEvidence.wrap((err as Error).message);
      }
      const problem = equivocationProblem(evidence);
      if (problem !== undefined) throw EvidenceErrors.InvalidEvidence.wrap(problem);
      const hash = await keeper.submitEvidence(ctx, evidence);
      return create(MsgSubmitEvidenceResponseSchema, { hash });
    }),
  ];
}
