/**
 * The wallet side of EIP-712 signed Cosmos txs (Ethermint's legacy ExtensionOptionsWeb3Tx), written
 * the way a web front-end writes it: the typed data's types spelled out by hand (as Ethermint's
 * and evmosjs's clients do), the message = the amino JSON sign doc as plain objects, signed by
 * viem's `signTypedData` (MetaMask's eth_signTypedData_v4 semantics: the EIP712Domain type comes
 * from the types) and cross-checked against an ethers v6 wallet signing the same digest
 * (ethers' own Wallet.signTypedData refuses this domain: "cosmos" is not an address).
 */
import { TypedDataEncoder, Wallet, concat, getBytes, hexlify, keccak256 } from 'ethers';
import { privateKeyToAccount } from 'viem/accounts';

export type Field = { name: string; type: string };
export type TypeMap = Record<string, Field[]>;

export const DOMAIN_TYPES: Field[] = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'string' },
  { name: 'salt', type: 'string' },
];
export const BASE_TYPES: TypeMap = {
  Tx: [
    { name: 'account_number', type: 'string' },
    { name: 'chain_id', type: 'string' },
    { name: 'fee', type: 'Fee' },
    { name: 'memo', type: 'string' },
    { name: 'msgs', type: 'Msg[]' },
    { name: 'sequence', type: 'string' },
  ],
  Fee: [
    { name: 'feePayer', type: 'string' },
    { name: 'amount', type: 'Coin[]' },
    { name: 'gas', type: 'string' },
  ],
  Coin: [
    { name: 'denom', type: 'string' },
    { name: 'amount', type: 'string' },
  ],
  Msg: [
    { name: 'type', type: 'string' },
    { name: 'value', type: 'MsgValue' },
  ],
};
export const MSG_SEND_TYPES: TypeMap = {
  MsgValue: [
    { name: 'from_address', type: 'string' },
    { name: 'to_address', type: 'string' },
    { name: 'amount', type: 'TypeAmount[]' },
  ],
  TypeAmount: [
    { name: 'denom', type: 'string' },
    { name: 'amount', type: 'string' },
  ],
};
export const MSG_DELEGATE_TYPES: TypeMap = {
  MsgValue: [
    { name: 'delegator_address', type: 'string' },
    { name: 'validator_address', type: 'string' },
    { name: 'amount', type: 'TypeAmount' },
  ],
  TypeAmount: [
    { name: 'denom', type: 'string' },
    { name: 'amount', type: 'string' },
  ],
};
export const MSG_VOTE_TYPES: TypeMap = {
  MsgValue: [
    { name: 'proposal_id', type: 'uint64' },
    { name: 'voter', type: 'string' },
    { name: 'option', type: 'int32' },
  ],
};

export function cosmosWeb3Domain(chainId: number) {
  return { name: 'Cosmos Web3', version: '1.0.0', chainId, verifyingContract: 'cosmos', salt: '0' };
}

/**
 * The 65-byte r||s||v signature (v 27/28) a wallet returns for the typed data of a sign doc:
 * Ethermint's legacy types (BASE_TYPES + the message's), or `options.primary` — every type but
 * EIP712Domain — for its current encoding.
 */
export async function signCosmosTypedData(privateKey: Uint8Array, chainId: number, msgTypes: TypeMap, message: Record<string, unknown>, options: { primary?: TypeMap } = {}): Promise<Uint8Array> {
  const account = privateKeyToAccount(hexlify(privateKey) as `0x${string}`);
  const txTypes = options.primary ?? { ...BASE_TYPES, ...msgTypes };
  const types = { EIP712Domain: DOMAIN_TYPES, ...txTypes };
  const viemSig = await account.signTypedData({ domain: cosmosWeb3Domain(chainId), types, primaryType: 'Tx', message } as never);
  const domainHash = TypedDataEncoder.hashStruct('EIP712Domain', { EIP712Domain: DOMAIN_TYPES }, cosmosWeb3Domain(chainId));
  const digest = keccak256(concat(['0x1901', domainHash, TypedDataEncoder.from(txTypes).hash(message)]));
  const ethersSig = new Wallet(hexlify(privateKey)).signingKey.sign(digest).serialized;
  if (ethersSig !== viemSig) throw new Error(`viem and ethers disagree on the EIP-712 signature: ${viemSig} vs ${ethersSig}`);
  return getBytes(viemSig);
}
