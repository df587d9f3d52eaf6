/** x/bank params and denom metadata: defaults and the SDK's validation texts. */
import { create } from '@bufbuild/protobuf';
import { DenomUnitSchema, MetadataSchema, ParamsSchema, type Metadata, type Params, type SendEnabled } from '../../../gen/cosmos/bank/v1beta1/bank_pb.js';
import { denomError } from '../shared/coins.js';

export type BankParams = Params;

export function defaultBankParams(): BankParams {
  return create(ParamsSchema, { sendEnabled: [], defaultSendEnabled: true });
}

/** Problems of a send_enabled list (invalid denoms, duplicates). */
export function validateSendEnabled(entries: readonly SendEnabled[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.denom)) problems.push(`duplicate send enabled parameter found: '${entry.denom}'`);
    seen.add(entry.denom);
    const bad = denomError(entry.denom);
    if (bad !== undefined) problems.push(bad);
  }
  return problems;
}

export function validateBankParams(params: BankParams): string[] {
  return validateSendEnabled(params.sendEnabled);
}

/**
 * Default metadata for an "atto" denom: base <denom> (exponent 0), display <denom without
 * "atto"> (exponent 18). attotoken → token, name "Token", symbol "TOKEN".
 */
export function defaultDenomMetadata(denom: string): Metadata | undefined {
  if (!denom.startsWith('atto') || denom.length <= 4) return undefined;
  const display = denom.slice(4);
  const name = display.charAt(0).toUpperCase() + display.slice(1);
  return create(MetadataSchema, {
    description: `The native token of the chain (1 ${display} = 10^18 ${denom})`,
    denomUnits: [
      create(DenomUnitSchema, { denom, exponent: 0, aliases: [] }),
      create(DenomUnitSchema, { denom: display, exponent: 18, aliases: [] }),
    ],
    base: denom,
    display,
    name,
    symbol: display.toUpperCase(),
    uri: '',
    uriHash: '',
  });
}

/** Metadata.Validate: undefined when valid, else the first problem. */
export function metadataError(metadata: Metadata): string | undefined {
  if (metadata.name.trim() === '') return 'name field cannot be blank';
  if (metadata.symbol.trim() === '') return 'symbol field cannot be blank';
  const base = denomError(metadata.base);
  if (base !== undefined) return `invalid metadata base denom: ${base}`;
  const display = denomError(metadata.display);
  if (display !== undefined) return `invalid metadata display denom: ${display}`;
  let hasDisplay = false;
  let exponent = 0;
  const seen = new Set<string>();
  for (const [i, unit] of metadata.denomUnits.entries()) {
    if (i === 0) {
      if (unit.denom !== metadata.base) return `metadata's first denomination unit must be the one with base denom '${metadata.base}'`;
      if (unit.exponent !== 0) return `the exponent for base denomination unit ${metadata.base} must be 0`;
    } else if (exponent >= unit.exponent) {
      return 'the denom units must be sorted in ascending order of their exponent';
    }
    exponent = unit.exponent;
    if (seen.has(unit.denom)) return `duplicate denomination unit ${unit.denom}`;
    if (unit.denom === metadata.display) hasDisplay = true;
    const bad = denomError(unit.denom);
    if (bad !== undefined) return bad;
    const aliases = new Set<string>();
    for (const alias of unit.aliases) {
      const badAlias = denomError(alias);
      if (badAlias !== undefined) return `invalid denom alias: ${badAlias}`;
      if (aliases.has(alias)) return `duplicated denomination unit alias ${alias}`;
      aliases.add(alias);
    }
    seen.add(unit.denom);
  }
  if (!hasDisplay) return `metadata must contain a denomination unit with display denom '${metadata.display}'`;
  return undefined;
}
