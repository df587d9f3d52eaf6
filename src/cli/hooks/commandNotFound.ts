/**
 * oclif `command_not_found` hook: an unknown command or subcommand (`tokend query staking nope`)
 * is one line on stderr naming the word that is wrong and the topic it is not in, with a
 * suggestion when a command of that topic is close, and the usage exit code. Nothing else runs.
 */
import type { Hook } from '@oclif/core';
import { EXIT_USAGE, outputFromArgv } from '../base.js';

/** Edit distance, for "did you mean". */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}

const hook: Hook<'command_not_found'> = async function (options) {
  const words = options.id.split(':');
  const topicNames = new Set(this.config.topics.map((topic) => topic.name));
  let known = 0;
  while (known < words.length - 1 && topicNames.has(words.slice(0, known + 1).join(':'))) known++;
  const topic = words.slice(0, known);
  const unknown = words[known]!;
  const prefix = topic.length > 0 ? `${topic.join(':')}:` : '';
  const siblings = new Set<string>();
  for (const command of this.config.commands) {
    for (const id of [command.id, ...command.aliases, ...(command.hiddenAliases ?? [])]) if (id.startsWith(prefix)) siblings.add(id.slice(prefix.length).split(':')[0]!);
  }
  const close = [...siblings].filter((name) => distance(name, unknown) <= Math.max(1, Math.floor(unknown.length / 4))).sort();
  const where = [this.config.bin, ...topic].join(' ');
  const line =
    `unknown command "${unknown}" for "${where}"` +
    (close.length > 0 ? `; did you mean ${close.map((name) => `"${name}"`).join(' or ')}?` : '.') +
    ` Run "${where} --help" to list its commands`;
  process.exitCode = EXIT_USAGE;
  if (outputFromArgv(options.argv ?? []) === 'json') {
    process.stderr.write(`${JSON.stringify({ error: line, code: 'USAGE', exit_code: EXIT_USAGE })}\n`);
  } else {
    process.stderr.write(`Error: ${line}\n`);
  }
  return undefined;
};

export default hook;
