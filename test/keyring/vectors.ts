/**
 * Test vectors (reference/COMPAT.md §8), re-encoded with this chain's prefix `token`: the 20
 * address bytes are the upstream ones, only the bech32 prefix (and so the checksum) differs.
 */
export const JUNK_MNEMONIC = 'test test test test test test test test test test test junk';

export interface AddressVector {
  mnemonic: string;
  hdPath: string;
  privateKeyHex?: string;
  publicKeyHex?: string;
  hex: string;
  token: string;
  /** The same bytes as given upstream (ethm/cosmos prefix). */
  upstream: string[];
}

export const ETH_VECTORS: AddressVector[] = [
  {
    mnemonic: JUNK_MNEMONIC,
    hdPath: "m/44'/60'/0'/0/0",
    privateKeyHex: 'ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
    publicKeyHex: '038318535b54105d4a7aae60c08fc45f9687181b4fdfc625bd1a753fa7397fed75',
    hex: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    token: 'token17w0adeg64ky0daxwd2ugyuneellmjgnxp6ktw2',
    upstream: ['ethm17w0adeg64ky0daxwd2ugyuneellmjgnxcn4sgz', 'cosmos17w0adeg64ky0daxwd2ugyuneellmjgnxramjtq'],
  },
  {
    mnemonic:
      'picnic rent average infant boat squirrel federal assault mercy purity very motor fossil wheel verify upset box fresh horse vivid copy predict square regret',
    hdPath: "m/44'/60'/0'/0/0",
    hex: '0xA588C66983a81e800Db4dF74564F09f91c026351',
    token: 'token15kyvv6vr4q0gqrd5ma69vncflywqyc63aml833',
    upstream: ['ethm15kyvv6vr4q0gqrd5ma69vncflywqyc63yjuuhe'],
  },
  {
    mnemonic:
      'gesture inject test cycle original hollow east ridge hen combine junk child bacon zero hope comfort vacuum milk pitch cage oppose unhappy lunar seat',
    hdPath: "m/44'/60'/0'/0/0",
    hex: '0x7cB61D4117AE31a12E393a1Cfa3BaC666481D02E',
    token: 'token10jmp6sgh4cc6zt3e8gw05wavvejgr5pwj4a0fx',
    upstream: ['ethm10jmp6sgh4cc6zt3e8gw05wavvejgr5pwtu750w'],
  },
  {
    mnemonic:
      'copper push brief egg scan entry inform record adjust fossil boss egg comic alien upon aspect dry avoid interest fury window hint race symptom',
    hdPath: "m/44'/60'/0'/0/0",
    hex: '0xC6Fe5D33615a1C52c08018c47E8Bc53646A0E101',
    token: 'token1cml96vmptgw99syqrrz8az79xer2pcgp8na6r3',
    upstream: ['ethm1cml96vmptgw99syqrrz8az79xer2pcgp767p9e', 'cosmos1cml96vmptgw99syqrrz8az79xer2pcgp95srxm'],
  },
];

/** Ethermint's relative-path vector: "44'/60'/0'/0/0" is appended to m/44'/60'/0'/0. */
export const PICNIC_RELATIVE = {
  mnemonic: ETH_VECTORS[1].mnemonic,
  hdPath: "44'/60'/0'/0/0",
  resolved: "m/44'/60'/0'/0/44'/60'/0'/0/0",
  hex: '0xF8D6FDf2B8b488ea37e54903750dcd13F67E71cb',
};

/** The junk key's bytes under the Cosmos scheme (ripemd160(sha256(pub))) — COMPAT §8. */
export const JUNK_COSMOS_SCHEME = {
  token: 'token15428vq2uzwhm3taey9sr9x5vm6tk78ewmncxtn',
  upstream: 'cosmos15428vq2uzwhm3taey9sr9x5vm6tk78ewe54lwe',
};

/** Junk mnemonic as a Cosmos key at m/44'/118'/0'/0/0 (cross-checked with CosmJS). */
export const JUNK_COSMOS_118 = 'token15yk64u7zc9g9k2yr2wmzeva5qgwxps6yy4zku5';
