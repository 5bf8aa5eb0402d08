import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layout's rule for handlers (README, "Where things live"): a Lambda handler in functions/ reaches
 * lib/store/ only for a plain read (a `get…`, `list…` or `find…` with no business rule in it), the types
 * those return, and the client they need (`createDb`); every write, and every read that applies a rule,
 * goes through lib/services/. dependency-cruiser sees modules, not names, so this check reads the imports.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const READ = /^(get|list|find)[A-Z]\w*$/;
const CLIENT = new Set(['createDb']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** Every value (not type) a source file imports from lib/store/, as `file: name`. */
function storeValueImports(file: string, text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g)) {
    if (match[1] || !/(^|\/)lib\/store\//.test(match[3]!)) continue;
    for (const raw of match[2]!.split(',')) {
      const name = raw.trim();
      if (!name || name.startsWith('type ')) continue;
      found.push(`${file}: ${name.split(/\s+as\s+/)[0]}`);
    }
  }
  for (const match of text.matchAll(/import\s+\*\s+as\s+\w+\s+from\s+'([^']*lib\/store\/[^']+)'/g)) found.push(`${file}: * from ${match[1]}`);
  return found;
}

describe('handlers and the store', () => {
  it('handlers import only plain reads and the client from lib/store/', () => {
    const offending = sources(join(ROOT, 'functions'))
      .flatMap((path) => storeValueImports(relative(ROOT, path), readFileSync(path, 'utf8')))
      .filter((entry) => {
        const name = entry.slice(entry.indexOf(': ') + 2);
        return !READ.test(name) && !CLIENT.has(name);
      });
    expect(offending).toEqual([]);
  });

  it('sees a write, a namespace import and a renamed import, and lets types through', () => {
    const text = [
      "import { getAgent, putNewAgent as put, type Agent } from '../../lib/store/agents.js';",
      "import type { Db } from '../../lib/store/dynamo.js';",
      "import * as store from '../../lib/store/contacts.js';",
      "import { findCall } from '../../lib/services/calls.js';",
    ].join('\n');
    expect(storeValueImports('f.ts', text)).toEqual(['f.ts: getAgent', 'f.ts: putNewAgent', 'f.ts: * from ../../lib/store/contacts.js']);
  });
});
