/**
 * Reading secrets and answers from the user.
 *
 * On a TTY we prompt on stderr (hidden input for passwords). When stdin is not a TTY, stdin is
 * read once to the end and handed out line by line, in the order the command asks, so scripts
 * can pipe `printf '%s\n' "$MNEMONIC" "$PASSWORD" | tokend …`.
 */
import { createInterface } from 'node:readline';
import { TokendError } from '../util/errors.js';

let stdinLines: string[] | undefined;

async function readAllStdin(): Promise<string[]> {
  if (stdinLines) return stdinLines;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  stdinLines = text.length === 0 ? [] : text.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
  return stdinLines;
}

export function isInteractive(): boolean {
  return Boolean(process.stdin.isTTY);
}

/** Next line from piped stdin; `what` names the expected input in the error. */
async function nextPipedLine(what: string): Promise<string> {
  const lines = await readAllStdin();
  const line = lines.shift();
  if (line === undefined) {
    throw new TokendError('INVALID_ARGUMENT', `expected ${what} on standard input, got end of input`, {
      hint: 'pipe one value per line, in the order the command asks for them',
    });
  }
  return line;
}

async function promptTty(question: string, hidden: boolean): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  if (hidden) {
    const writable = rl as unknown as { _writeToOutput: (s: string) => void; output: NodeJS.WriteStream };
    let asked = false;
    writable._writeToOutput = (s: string): void => {
      if (!asked) {
        process.stderr.write(s);
        asked = true;
      } else if (s.includes('\n') || s.includes('\r')) {
        process.stderr.write('\n');
      }
    };
  }
  try {
    return await new Promise<string>((resolveAnswer, reject) => {
      rl.question(question, resolveAnswer);
      rl.once('SIGINT', () => reject(new TokendError('ABORTED', 'aborted')));
      rl.once('close', () => reject(new TokendError('ABORTED', 'aborted: no input')));
    });
  } finally {
    rl.close();
  }
}

/** Ask for a line of input (visible). */
export async function readLine(question: string, what = 'a line'): Promise<string> {
  return isInteractive() ? promptTty(question, false) : nextPipedLine(what);
}

/** Ask for a secret (hidden on a TTY). */
export async function readSecret(question: string, what = 'a password'): Promise<string> {
  return isInteractive() ? promptTty(question, true) : nextPipedLine(what);
}

/** y/N confirmation; with no TTY the answer is read from stdin. */
export async function confirm(question: string): Promise<boolean> {
  const answer = await readLine(`${question} [y/N]: `, 'a y/N confirmation');
  return /^y(es)?$/i.test(answer.trim());
}

/** Test hook: replace what stdin holds. */
export function setPipedInputForTests(lines: string[] | undefined): void {
  stdinLines = lines;
}
