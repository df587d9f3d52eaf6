import { packetQueryCommand } from '../../../cli/ibcFee.js';

export default packetQueryCommand('totalAckFees', "Query the sum of a packet's acknowledgement fees", 'total-ack-fees transfer channel-5 100');
