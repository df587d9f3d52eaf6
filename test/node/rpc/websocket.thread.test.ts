/** websocket.test.ts again with the RPC's HTTP side on a thread of its own ([rpc] http_thread): frames relayed both ways. */
import './onThread.js';
import './websocket.test.js';
