// Shared by the build scripts: every file under a directory whose name passes a test.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The paths of the files under `dir` (all depths) whose name `accept` takes. */
export function filesUnder(dir, accept) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...filesUnder(path, accept));
    else if (accept(entry.name)) files.push(path);
  }
  return files;
}
