/**
 * The EIP-712 pieces on their own: the encoder against ethers v6's TypedDataEncoder on nested
 * documents, go-ethereum's refusals, and Ethermint's legacy types derived from messages.
 */
import { create } from '@bufbuild/protobuf';
import { TypedDataEncoder as EthersEncoder, concat, keccak256 as ethersKeccak } from 'ethers';
import { MsgSendSchema } from '../../../../src/gen/cosmos/bank/v1beta1/tx_pb.js';
import { CoinSchema } from '../../../../src/gen/cosmos/base/v1beta1/coin_pb.js';
import { TextProposalSchema, VoteOption } from '../../../../src/gen/cosmos/gov/v1beta1/gov_pb.js';
import { MsgSubmitProposalSchema, MsgVoteSchema } from '../../../../src/gen/cosmos/gov/v1beta1/tx_pb.js';
import { MsgDelegateSchema } from '../../../../src/gen/cosmos/staking/v1beta1/tx_pb.js';
import '../../../../src/node/app/index.js';
import { anyPack } from '../../../../src/node/codec/index.js';
import { eip712TypedData, parseEthermintChainId } from '../../../../src/node/modules/evm/eip712/encoding.js';
import { LegacyTypesBuilder, legacyTypedData, sanitizeTypedef } from '../../../../src/node/modules/evm/eip712/legacy.js';
import { TypedDataEncoder, TypedDataError, typedDataHash, type Types } from '../../../../src/node/modules/evm/eip712/typedData.js';

const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;

describe('EIP-712 encoder', () => {
  const types: Types = {
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person[]' },
      { name: 'contents', type: 'string' },
      { name: 'ids', type: 'uint64[]' },
      { name: 'delta', type: 'int32' },
      { name: 'ok', type: 'bool' },
      { name: 'salt', type: 'bytes32' },
      { name: 'blob', type: 'bytes' },
    ],
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallet', type: 'address' },
    ],
  };
  const message = {
    from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
    to: [
      { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
      { name: 'Eve', wallet: '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee' },
    ],
    contents: 'Hello, Bob!',
    ids: ['1', 18446744073709551615n, 7],
    delta: -5,
    ok: true,
    salt: `0x${'ab'.repeat(32)}`,
    blob: '0x010203',
  };

  test('struct hashes and the digest agree with ethers v6', () => {
    const ours = new TypedDataEncoder(types);
    expect(ours.encodeType('Mail')).toBe('Mail(Person from,Person[] to,string contents,uint64[] ids,int32 delta,bool ok,bytes32 salt,bytes blob)Person(string name,address wallet)');
    const ethersTypes = { ...types };
    expect(hex(ours.hashStruct('Mail', message))).toBe(EthersEncoder.from(ethersTypes).hash(message));
    // A standard domain (ethers only takes standard domains) through our EIP712Domain declaration.
    const domain = { name: 'Ether Mail', version: '1', chainId: 1, verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC' };
    const withDomain: Types = {
      ...types,
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'version', type: 'string' },
        { name: 'chainId', type: 'uint256' },
        { name: 'verifyingContract', type: 'address' },
      ],
    };
    const { hash, raw } = typedDataHash({ types: withDomain, primaryType: 'Mail', domain, message });
    expect(hex(hash)).toBe(EthersEncoder.hash(domain, types, message));
    expect(hex(raw)).toBe(concat(['0x1901', EthersEncoder.hashDomain(domain), EthersEncoder.from(types).hash(message)]));
    expect(hex(hash)).toBe(ethersKeccak(raw));
  });

  test('go-ethereum’s refusals', () => {
    const enc = new TypedDataEncoder(types);
    const bad = (patch: Record<string, unknown>) => () => enc.encodeData('Mail', { ...message, ...patch } as never);
    expect(bad({ extra: 'x' })).toThrow(new TypedDataError('there is extra data provided in the message (8 < 9)'));
    expect(bad({ contents: 5 })).toThrow("provided data '5' doesn't match type 'string'");
    expect(bad({ contents: undefined })).toThrow("provided data '<nil>' doesn't match type 'string'");
    expect(bad({ delta: 1.5 })).toThrow('invalid float value 1.5 for type int32');
    expect(bad({ delta: 2 ** 40 })).toThrow("integer larger than 'int32'");
    expect(bad({ ids: ['-1'] })).toThrow('invalid negative value for unsigned type uint64');
    expect(bad({ ids: 'x' })).toThrow("provided data 'x' doesn't match type 'uint64[]'");
    expect(bad({ from: { name: 'a', wallet: 'nope' } })).toThrow("provided data 'nope' doesn't match type 'address'");
    expect(() => new TypedDataEncoder({ A: [{ name: 'a', type: 'A' }] })).toThrow('type "A" cannot reference itself');
    expect(() => new TypedDataEncoder({ A: [{ name: 'a', type: 'B' }] })).toThrow('reference type "B" is undefined');
    expect(() => new TypedDataEncoder({ A: [{ name: 'a', type: 'uint7' }] })).toThrow('unknown type "uint7"');
  });
});

describe('Ethermint legacy EIP-712 types', () => {
  const builder = new LegacyTypesBuilder();
  const coin = (amount: string) => create(CoinSchema, { denom: 'attotoken', amount });

  test('names nested types from their path', () => {
    expect(sanitizeTypedef('_.amount')).toBe('TypeAmount');
    expect(sanitizeTypedef('_.initial_deposit')).toBe('TypeInitialDeposit');
    expect(sanitizeTypedef('_.content.value')).toBe('TypeContentValue');
  });

  test('MsgSend, MsgDelegate, MsgVote: the types wallets use', () => {
    const send = builder.types(MsgSendSchema, create(MsgSendSchema, { fromAddress: 'a', toAddress: 'b', amount: [coin('1')] }));
    expect(send['MsgValue']).toEqual([
      { name: 'from_address', type: 'string' },
      { name: 'to_address', type: 'string' },
      { name: 'amount', type: 'TypeAmount[]' },
    ]);
    expect(send['TypeAmount']).toEqual([
      { name: 'denom', type: 'string' },
      { name: 'amount', type: 'string' },
    ]);
    const delegate = builder.types(MsgDelegateSchema, create(MsgDelegateSchema, { delegatorAddress: 'a', validatorAddress: 'v', amount: coin('5') }));
    expect(delegate['MsgValue']).toEqual([
      { name: 'delegator_address', type: 'string' },
      { name: 'validator_address', type: 'string' },
      { name: 'amount', type: 'TypeAmount' },
    ]);
    const vote = builder.types(MsgVoteSchema, create(MsgVoteSchema, { proposalId: 1n, voter: 'a', option: VoteOption.YES }));
    expect(vote['MsgValue']).toEqual([
      { name: 'proposal_id', type: 'uint64' },
      { name: 'voter', type: 'string' },
      { name: 'option', type: 'int32' },
    ]);
  });

  test('zero fields are left out; an Any becomes {type, value}', () => {
    const empty = builder.types(MsgSendSchema, create(MsgSendSchema, { fromAddress: 'a', toAddress: '', amount: [] }));
    expect(empty['MsgValue']).toEqual([{ name: 'from_address', type: 'string' }]);
    const content = anyPack(TextProposalSchema, create(TextProposalSchema, { title: 'T', description: 'D' }));
    const submit = builder.types(MsgSubmitProposalSchema, create(MsgSubmitProposalSchema, { content, initialDeposit: [coin('10')], proposer: 'p' }));
    expect(submit['MsgValue']).toEqual([
      { name: 'content', type: 'TypeContent' },
      { name: 'initial_deposit', type: 'TypeInitialDeposit[]' },
      { name: 'proposer', type: 'string' },
    ]);
    expect(submit['TypeContent']).toEqual([
      { name: 'type', type: 'string' },
      { name: 'value', type: 'TypeContentValue' },
    ]);
    expect(submit['TypeContentValue']).toEqual([
      { name: 'title', type: 'string' },
      { name: 'description', type: 'string' },
    ]);
    // An unset Any: Ethermint dereferences it and recovers the panic.
    expect(() => builder.types(MsgSubmitProposalSchema, create(MsgSubmitProposalSchema, { proposer: 'p' }))).toThrow('panicked with error: runtime error: invalid memory address or nil pointer dereference');
  });

  test('the typed data: Cosmos Web3 domain, fee with feePayer, the sign doc as the message', () => {
    const msg = create(MsgSendSchema, { fromAddress: 'a', toAddress: 'b', amount: [coin('1')] });
    const doc = '{"account_number":"3","chain_id":"c_9-1","fee":{"amount":[],"gas":"200000"},"memo":"","msgs":[{"type":"cosmos-sdk/MsgSend","value":{"amount":[{"amount":"1","denom":"attotoken"}],"from_address":"a","to_address":"b"}}],"sequence":"0"}';
    const typed = legacyTypedData({ chainId: 9n, signDocJson: doc, firstMsg: { schema: MsgSendSchema, message: msg }, feePayer: 'a' });
    expect(typed.domain).toEqual({ name: 'Cosmos Web3', version: '1.0.0', chainId: 9n, verifyingContract: 'cosmos', salt: '0' });
    expect(typed.types['Fee']!.map((f) => f.name)).toEqual(['feePayer', 'amount', 'gas']);
    expect((typed.message['fee'] as Record<string, unknown>)['feePayer']).toBe('a');
    expect(() => typedDataHash(typed)).not.toThrow();
    // A timeout height has no place in the Tx type.
    const timed = legacyTypedData({ chainId: 9n, signDocJson: doc.replace(/}$/, ',"timeout_height":"5"}'), firstMsg: { schema: MsgSendSchema, message: msg }, feePayer: 'a' });
    expect(() => typedDataHash(timed)).toThrow('there is extra data provided in the message (6 < 7)');
  });
});

describe('Ethermint current EIP-712 encoding (plain txs)', () => {
  test('chain ids of the form name_N-V only', () => {
    expect(parseEthermintChainId('tokend_9000-1')).toBe(9000n);
    expect(parseEthermintChainId('testnet')).toBeUndefined();
    expect(parseEthermintChainId('Tokend_9000-1')).toBeUndefined();
    expect(parseEthermintChainId(`${'a'.repeat(45)}_1-1`)).toBeUndefined();
  });

  test('msgs flattened, types from the JSON in descending key order, indexed names shared or numbered', () => {
    const doc = {
      account_number: '1',
      chain_id: 'c_9-1',
      fee: { amount: [], gas: '200000' },
      memo: '',
      msgs: [
        { type: 'cosmos-sdk/MsgSend', value: { amount: [{ amount: '1', denom: 'a' }], from_address: 'x', to_address: 'y' } },
        { type: 'cosmos-sdk/MsgSend', value: { amount: [{ amount: '2', denom: 'a' }], from_address: 'x', to_address: 'z' } },
        { type: 'cosmos-sdk/MsgVote', value: { option: 1, proposal_id: '1', voter: 'x', flags: [], note: null, ok: true } },
      ],
      sequence: '0',
    };
    const typed = eip712TypedData(9n, JSON.stringify(doc));
    expect(typed.types['Tx']!.slice(5)).toEqual([
      { name: 'msg0', type: 'TypeMsgSend0' },
      { name: 'msg1', type: 'TypeMsgSend0' },
      { name: 'msg2', type: 'TypeMsgVote0' },
    ]);
    expect(typed.types['TypeValue0']).toEqual([
      { name: 'to_address', type: 'string' },
      { name: 'from_address', type: 'string' },
      { name: 'amount', type: 'TypeValueAmount0[]' },
    ]);
    expect(typed.types['TypeValue1']).toEqual([
      { name: 'voter', type: 'string' },
      { name: 'proposal_id', type: 'string' },
      { name: 'option', type: 'int64' },
      { name: 'ok', type: 'bool' },
      { name: 'flags', type: 'string[]' },
    ]);
    expect(typed.types['TypeMsgVote0']).toEqual([
      { name: 'value', type: 'TypeValue1' },
      { name: 'type', type: 'string' },
    ]);
    expect(Object.keys(typed.message).sort()).toEqual(['account_number', 'chain_id', 'fee', 'memo', 'msg0', 'msg1', 'msg2', 'sequence']);
    // The null `note` has no type but stays in the message: go-ethereum refuses the extra key.
    expect(() => typedDataHash(typed)).toThrow('there is extra data provided in the message (5 < 6)');
    const fine = eip712TypedData(9n, JSON.stringify({ ...doc, msgs: doc.msgs.slice(0, 2) }));
    expect(() => typedDataHash(fine)).not.toThrow();
    expect(() => eip712TypedData(9n, JSON.stringify({ ...doc, msgs: undefined }))).toThrow('no messages found in payload');
    expect(() => eip712TypedData(9n, JSON.stringify({ ...doc, msgs: [{ type: 5, value: {} }] }))).toThrow('malformed message type value');
  });
});
