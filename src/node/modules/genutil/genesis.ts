/**
 * x/genutil genesis: `{ gen_txs: [Tx JSON] }`. A gentx is an ordinary signed tx (normally one
 * MsgCreateValidator, account number 0) in the SDK's JSON form; it is turned back into TxRaw
 * bytes and delivered at InitChain through the normal finalize path.
 */
import { create, toBinary, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import { AuthInfoSchema, TxBodySchema, TxRawSchema, TxSchema, type Tx } from '../../../gen/cosmos/tx/v1beta1/tx_pb.js';
import { MsgCreateValidatorSchema } from '../../../gen/cosmos/staking/v1beta1/tx_pb.js';
import { fromGatewayJson } from '../../codec/index.js';

export const MODULE_NAME = 'genutil';

export interface GenutilGenesis {
  gen_txs: JsonValue[];
}

export function defaultGenutilGenesis(): JsonObject {
  return { gen_txs: [] };
}

/** The gen_txs array of the module's app_state entry (missing → []). Throws on a non-array. */
export function genTxsOf(genesis: JsonValue | undefined): JsonValue[] {
  if (genesis === undefined || genesis === null) return [];
  if (typeof genesis !== 'object' || Array.isArray(genesis)) throw new Error('genutil genesis must be an object with gen_txs');
  const txs = (genesis as JsonObject)['gen_txs'];
  if (txs === undefined || txs === null) return [];
  if (!Array.isArray(txs)) throw new Error('genutil gen_txs must be an array');
  return txs;
}

/** Parses a gentx's JSON (SDK tx JSON) into a Tx. Throws CodecError naming the bad field. */
export function parseGenTx(json: JsonValue): Tx {
  return fromGatewayJson(TxSchema, json);
}

/** The TxRaw bytes of a parsed tx (body and auth info re-encoded deterministically). */
export function txRawBytes(tx: Tx): Uint8Array {
  return toBinary(
    TxRawSchema,
    create(TxRawSchema, {
      bodyBytes: tx.body === undefined ? new Uint8Array(0) : toBinary(TxBodySchema, tx.body),
      authInfoBytes: tx.authInfo === undefined ? new Uint8Array(0) : toBinary(AuthInfoSchema, tx.authInfo),
      signatures: tx.signatures,
    }),
  );
}

/** genutil's ValidateGenesis: every gentx decodes and carries exactly one MsgCreateValidator. */
export function validateGenutilGenesis(genesis: JsonValue | undefined): string[] {
  let txs: JsonValue[];
  try {
    txs = genTxsOf(genesis);
  } catch (err) {
    return [(err as Error).message];
  }
  const problems: string[] = [];
  txs.forEach((json, i) => {
    let tx: Tx;
    try {
      tx = parseGenTx(json);
    } catch (err) {
      problems.push(`gentx ${i}: ${(err as Error).message}`);
      return;
    }
    const messages = tx.body?.messages ?? [];
    if (messages.length !== 1) problems.push(`gentx ${i}: each genesis transaction must provide a single genesis message`);
    else if (messages[0]!.typeUrl !== `/${MsgCreateValidatorSchema.typeName}`) problems.push(`gentx ${i}: genesis transaction does not contain a MsgCreateValidator`);
  });
  return problems;
}
