/**
 * A YAML dump of plain JSON data that prints exactly what the `yaml` package's
 * `stringify(value, { lineWidth: 0 })` prints, for the simple shapes query results have (maps,
 * lists of maps, short identifier-like strings, integers, booleans, null) — without loading that
 * package (its import costs about as much as the rest of a balance query). Anything it is not
 * sure of — a string with spaces, colons or escapes, a fraction, a list in a list — makes it
 * answer undefined, and the caller uses the package. test/cli/yaml.test.ts holds it to the package.
 */

/** Strings that stay plain: letters, digits and a few punctuation marks that YAML gives no meaning. */
const PLAIN = /^[A-Za-z0-9_/][A-Za-z0-9_./+=-]*$/;
/** Keys printed as they are. */
const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
/** Plain scalars the YAML 1.2 core schema reads as something other than a string (then quoted). */
const NOT_A_STRING = /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

class NotSimple extends Error {}

function scalar(value: unknown): string | undefined {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || Object.is(value, -0)) throw new NotSimple();
    return String(value);
  }
  if (typeof value === 'string') {
    if (value === '') return '""';
    if (value.length > 80 || !PLAIN.test(value)) throw new NotSimple();
    return NOT_A_STRING.test(value) ? `"${value}"` : value;
  }
  return undefined;
}

/** Lines of a non-empty map or list (no indentation of their own). */
function block(value: unknown): string[] {
  const lines: string[] = [];
  if (Array.isArray(value)) {
    for (const item of value) {
      const s = inline(item);
      if (s !== undefined) {
        lines.push(`- ${s}`);
        continue;
      }
      if (Array.isArray(item)) throw new NotSimple();
      const inner = block(item);
      lines.push(`- ${inner[0]}`, ...inner.slice(1).map((line) => `  ${line}`));
    }
    return lines;
  }
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (!PLAIN_KEY.test(key) || NOT_A_STRING.test(key)) throw new NotSimple();
    if (item === undefined) continue;
    const s = inline(item);
    if (s !== undefined) {
      lines.push(`${key}: ${s}`);
      continue;
    }
    lines.push(`${key}:`, ...block(item).map((line) => `  ${line}`));
  }
  return lines;
}

/** A value that fits on its key's line: a scalar, [] or {}. */
function inline(value: unknown): string | undefined {
  const s = scalar(value);
  if (s !== undefined) return s;
  if (Array.isArray(value)) return value.length === 0 ? '[]' : undefined;
  if (typeof value === 'object') return Object.keys(value as object).length === 0 ? '{}' : undefined;
  throw new NotSimple();
}

/** The dump (without its final newline), or undefined when the value is not simple enough. */
export function simpleYaml(value: unknown): string | undefined {
  try {
    const s = inline(value);
    if (s !== undefined) return typeof value === 'object' ? s : undefined;
    if (Object.values(value as object).some((item) => item === undefined)) return undefined;
    return block(value).join('\n');
  } catch (err) {
    if (err instanceof NotSimple) return undefined;
    throw err;
  }
}
