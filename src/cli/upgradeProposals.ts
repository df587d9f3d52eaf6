/**
 * The gov proposals `tx upgrade software-upgrade` and `tx upgrade cancel-software-upgrade` sign
 * (SDK 0.47's x/upgrade CLI): a v1 MsgSubmitProposal whose one message, with the gov module
 * account as authority, schedules or cancels the plan if the proposal passes. Bad input throws
 * INVALID_ARGUMENT (exit 2) before anything is signed.
 */
import { create } from '@bufbuild/protobuf';
import type { Any } from '@bufbuild/protobuf/wkt';
import { MsgSubmitProposalSchema } from '../gen/cosmos/gov/v1/tx_pb.js';
import { MsgCancelUpgradeSchema, MsgSoftwareUpgradeSchema } from '../gen/cosmos/upgrade/v1beta1/tx_pb.js';
import { PlanSchema } from '../gen/cosmos/upgrade/v1beta1/upgrade_pb.js';
import { toAccountAddress } from '../keyring/address.js';
import { packMessage } from '../node/client/tx.js';
import { accString, moduleAddress } from '../node/modules/shared/address.js';
import { coinsToProto, parseCoins } from '../node/modules/shared/coins.js';
import { TokendError } from '../util/errors.js';

export interface ProposalFlags {
  title: string;
  summary: string;
  deposit: string;
  metadata: string;
}

function bad(message: string, hint?: string): TokendError {
  return new TokendError('INVALID_ARGUMENT', message, { hint, exitCode: 2 });
}

/** Checks the flags, then returns the proposal for a proposer (known once the key is loaded). */
function proposal(message: Any, flags: ProposalFlags): (proposer: Uint8Array) => Any {
  let deposit;
  try {
    deposit = coinsToProto(parseCoins(flags.deposit, { allowEmpty: true }));
  } catch (err) {
    throw bad(`invalid --deposit ${JSON.stringify(flags.deposit)}: ${err instanceof Error ? err.message : String(err)}`, 'coins look like 10000000attotoken');
  }
  if (flags.title.trim() === '') throw bad('a proposal needs a title', 'pass --title');
  if (flags.summary.trim() === '') throw bad('a proposal needs a summary', 'pass --summary');
  return (proposer) =>
    packMessage(
      MsgSubmitProposalSchema,
      create(MsgSubmitProposalSchema, { messages: [message], initialDeposit: deposit, proposer: toAccountAddress(proposer), metadata: flags.metadata, title: flags.title, summary: flags.summary }),
    );
}

/** The gov account: the upgrade module's authority. */
function govAuthority(): string {
  return accString(moduleAddress('gov'));
}

export function softwareUpgradeProposal(name: string, flags: ProposalFlags & { 'upgrade-height': string; 'upgrade-info': string }): (proposer: Uint8Array) => Any {
  if (name.trim() === '') throw bad('the plan needs a name', 'tokend tx upgrade software-upgrade v2 --upgrade-height H …');
  const heightText = flags['upgrade-height'];
  if (!/^[1-9][0-9]*$/.test(heightText) || BigInt(heightText) > (1n << 63n) - 1n) {
    throw bad(`invalid --upgrade-height ${JSON.stringify(heightText)}: expected a positive integer`);
  }
  const plan = create(PlanSchema, { name, height: BigInt(heightText), info: flags['upgrade-info'] });
  return proposal(packMessage(MsgSoftwareUpgradeSchema, create(MsgSoftwareUpgradeSchema, { authority: govAuthority(), plan })), flags);
}

export function cancelUpgradeProposal(flags: ProposalFlags): (proposer: Uint8Array) => Any {
  return proposal(packMessage(MsgCancelUpgradeSchema, create(MsgCancelUpgradeSchema, { authority: govAuthority() })), flags);
}
