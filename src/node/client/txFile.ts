/** Txs as JSON files (`--generate-only`, `tx sign`, `tx broadcast`, `tx encode`): reading, signing, encoding. */
import { readFileSync } from 'node:fs';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { AuthInfoSchema, ModeInfo_SingleSchema, ModeInfoSchema, SignerInfoSchema, TxBodySchema, TxRawSchema, TxSchema, type Tx } from '../../gen/cosmos/tx/v1beta1/tx_pb.js';
import { SignMode } from '../../gen/cosmos/tx/signing/v1beta1/signing_pb.js';
import { registry } from '../codec/registry.js';
import { fromGatewayJson, toGatewayJson } from '../codec/json.js';
import '../app/modules.js'; // registers the app modules' types (Msgs, accounts …) in the codec registry
import { TokendError } from '../../util/errors.js';
import type { Keyring, KeyRecord } from '../../keyring/types.js';
import { encodeTxRaw, pubKeyAny, signBytesForMode } from './tx.js';
import type { JsonValue } from './query.js';

export function readTxFile(path: string): Tx {
  let text: string;
  try {
    text = path === '-' ? readFileSync(0, 'utf8') : readFileSync(path, 'utf8');
  } catch (err) {
    throw new TokendError('INVALID_ARGUMENT', `cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new TokendError('INVALID_ARGUMENT', `${path} is not valid JSON: ${(err as Error).message}`);
  }
  try {
    const doc = json as Record<string, unknown>;
    // Accept a bare Tx or a wrapper {"tx": {...}}; drop the Any marker of a TxResponse's tx.
    const txJson = (doc.tx && typeof doc.tx === 'object' ? doc.tx : doc) as Record<string, unknown>;
    const { '@type': _ignored, ...rest } = txJson;
    return fromGatewayJson(TxSchema, rest as Parameters<typeof fromGatewayJson>[1], { registry });
  } catch (err) {
    throw new TokendError('INVALID_ARGUMENT', `${path} is not a transaction: ${(err as Error).message}`);
  }
}

export function txToJson(tx: Tx): JsonValue {
  return toGatewayJson(TxSchema, tx, { registry }) as JsonValue;
}

export function txRawBytes(tx: Tx): Uint8Array {
  if (!tx.body || !tx.authInfo) throw new TokendError('INVALID_ARGUMENT', 'the transaction has no body or auth_info');
  return encodeTxRaw({ bodyBytes: toBinary(TxBodySchema, tx.body), authInfoBytes: toBinary(AuthInfoSchema, tx.authInfo) }, tx.signatures);
}

export function decodeTxBytes(bytes: Uint8Array): Tx {
  try {
    const raw = fromBinary(TxRawSchema, bytes);
    return create(TxSchema, { body: fromBinary(TxBodySchema, raw.bodyBytes), authInfo: fromBinary(AuthInfoSchema, raw.authInfoBytes), signatures: raw.signatures });
  } catch (err) {
    throw new TokendError('INVALID_ARGUMENT', `not a transaction: ${(err as Error).message}`);
  }
}

/** Sign `tx` (single signer, in `mode`, DIRECT by default) with `key`, replacing its signer info and signatures. */
export async function signTxMessage(tx: Tx, keyring: Keyring, key: KeyRecord, chainId: string, accountNumber: bigint, sequence: bigint, mode: SignMode = SignMode.DIRECT): Promise<Tx> {
  if (!tx.body || !tx.authInfo) throw new TokendError('INVALID_ARGUMENT', 'the transaction has no body or auth_info');
  const authInfo = create(AuthInfoSchema, {
    ...tx.authInfo,
    signerInfos: [
      create(SignerInfoSchema, {
        publicKey: pubKeyAny(key.algo, key.pubKey),
        modeInfo: create(ModeInfoSchema, { sum: { case: 'single', value: create(ModeInfo_SingleSchema, { mode }) } }),
        sequence,
      }),
    ],
  });
  const parts = { bodyBytes: toBinary(TxBodySchema, tx.body), authInfoBytes: toBinary(AuthInfoSchema, authInfo) };
  const signed = await keyring.sign(key.name, await signBytesForMode(mode, parts, { chainId, accountNumber, sequence }));
  return create(TxSchema, { body: tx.body, authInfo, signatures: [signed.signature] });
}
