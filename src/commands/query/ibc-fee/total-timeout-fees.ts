import { packetQueryCommand } from '../../../cli/ibcFee.js';

export default packetQueryCommand('totalTimeoutFees', "Query the sum of a packet's timeout fees", 'total-timeout-fees transfer channel-5 100');
