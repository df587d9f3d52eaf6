/** Edits of a home's app.toml for the benchmarks, as an operator would make them. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Sets `key = value` in `[section]` of <home>/config/app.toml (the key must be there already). */
export function setAppTomlKey(home: string, section: string, key: string, value: string): void {
  const file = join(home, 'config', 'app.toml');
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(`\n[${section}]\n`);
  if (start < 0) throw new Error(`no [${section}] in ${file}`);
  const next = text.indexOf('\n[', start + 1);
  const end = next < 0 ? text.length : next;
  const line = new RegExp(`^${key.replace(/[-.]/g, '\\$&')} = .*$`, 'm');
  const body = text.slice(start, end);
  if (!line.test(body)) throw new Error(`no ${key} in [${section}] of ${file}`);
  writeFileSync(file, text.slice(0, start) + body.replace(line, `${key} = ${value}`) + text.slice(end));
}
