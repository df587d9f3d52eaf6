import { packetQueryCommand } from '../../../cli/ibcFee.js';

export default packetQueryCommand('totalRecvFees', "Query the sum of a packet's receive fees", 'total-recv-fees transfer channel-5 100');
