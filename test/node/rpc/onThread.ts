/** Imported first by the *.thread.test.ts files: the servers the helpers start run their HTTP side on a thread of its own. */
import { rpcMode } from './helpers.js';

rpcMode.thread = true;
