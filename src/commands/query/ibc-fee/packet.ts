import { packetQueryCommand } from '../../../cli/ibcFee.js';

export default packetQueryCommand('incentivizedPacket', "Query the fees escrowed for one packet", 'packet transfer channel-0 1');
