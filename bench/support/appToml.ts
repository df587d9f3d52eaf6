/** Edits of a home's app.toml and config.toml for the benchmarks, as an operator would make them. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Sets `key = value` in `[section]` of <home>/config/app.toml (the key must be there already). */
export function setAppTomlKey(home: string, section: string, key: string, value: string): void {
  setTomlKey(join(home, 'config', 'app.toml'), section, key, value);
}

/** Sets `key = value` in `[section]` of <home>/config/config.toml (the key must be there already). */
export function setConfigTomlKey(home: string, section: string, key: string, value: string): void {
  setTomlKey(join(home, 'config', 'config.toml'), section, key, value);
}

function setTomlKey(file: string, section: string, key: string, value: string): void {
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
