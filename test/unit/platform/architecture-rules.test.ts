import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  importCycles,
  REPOSITORY_ROOT,
  readSourceModules,
  type SourceModule,
} from '../../support/import-graph';

/**
 * The floors of docs/architecture.md, checked over the source tree: which room may import which,
 * no import circles, no file over 500 lines and no folder of more than 15 source files side by side.
 */
const modules = readSourceModules([
  'shared',
  'functions',
  'infra',
  'local',
  'console/src',
  'bin',
  'packages/cli/src',
]);

/** The shell every function carries: configuration, logging/metrics/tracing, version, zod. */
const SHELL = /^shared\/(config|observability|metric-names|tracing|version|zod)\.ts$/;

interface Rule {
  room: RegExp;
  may: RegExp[];
  why: string;
}

const RULES: Rule[] = [
  {
    room: /^shared\/domain\/core\//,
    may: [/^shared\/domain\/core\//, /^shared\/zod\.ts$/],
    why: 'core is the ground floor: the vocabulary every other room shares',
  },
  {
    room: /^shared\/domain\//,
    may: [/^shared\/domain\//, /^shared\/zod\.ts$/],
    why: 'the domain is pure',
  },
  {
    room: /^shared\/store\//,
    may: [/^shared\/(store|domain)\//, SHELL],
    why: 'stores know the domain and DynamoDB, nothing above',
  },
  {
    room: /^shared\/platform\//,
    may: [/^shared\/(platform|domain)\//, SHELL],
    why: 'platform clients know the domain and their service, nothing above',
  },
  {
    room: /^shared\/services\//,
    may: [
      /^shared\/(services|store|platform|domain)\//,
      /^shared\/api\/(route-types\.ts|generated\/)/,
      SHELL,
    ],
    why: 'services compose the domain, the stores and the platform clients',
  },
  {
    room: /^shared\/api\//,
    may: [/^shared\/(api|domain)\//, SHELL],
    why: 'the HTTP shell and the route table know the domain, not the services behind them',
  },
  {
    room: /^functions\//,
    may: [/^shared\/(services|api|handlers)\//, /^functions\//, SHELL],
    why: 'a handler parses, calls one service and shapes the response',
  },
  {
    room: /^shared\/handlers\//,
    may: [/^shared\/handlers\//, SHELL],
    why: 'the handler wrappers are shell: logger, metrics and the error answers of their event source',
  },
  {
    room: /^infra\//,
    may: [/^infra\//, /^shared\/(api|domain|store|platform)\//, SHELL],
    why: 'the CDK app derives from the declarations, and never loads the local runtime',
  },
  {
    room: /^console\/src\//,
    may: [/^console\/src\//, /^shared\/domain\//],
    why: 'the browser app is built from its own code, its generated API types and the pure domain',
  },
];

const FORBIDDEN_PACKAGES: { room: RegExp; packages: RegExp; why: string }[] = [
  {
    room: /^shared\/domain\//,
    packages: /^(@aws-sdk\/|aws-lambda|@aws-lambda-powertools\/|@middy\/)/,
    why: 'pure domain',
  },
  {
    room: /^functions\//,
    packages: /^@aws-sdk\//,
    why: 'clients are built in shared/platform or shared/store',
  },
  { room: /^console\/src\//, packages: /^(@aws-sdk\/|aws-lambda)/, why: 'browser code' },
];

function violations(module: SourceModule): string[] {
  const rule = RULES.find((r) => r.room.test(module.path));
  const out: string[] = [];
  if (rule)
    for (const target of module.imports)
      if (!rule.may.some((allowed) => allowed.test(target)))
        out.push(`${module.path} -> ${target} (${rule.why})`);
  for (const forbidden of FORBIDDEN_PACKAGES)
    if (forbidden.room.test(module.path))
      for (const name of module.packages)
        if (forbidden.packages.test(name)) out.push(`${module.path} -> ${name} (${forbidden.why})`);
  return out;
}

describe('the floors of docs/architecture.md', () => {
  it('reads the source tree (the walker finds the rooms it checks)', () => {
    const rooms = new Set(modules.map((m) => m.path.split('/').slice(0, 2).join('/')));
    for (const room of [
      'shared/domain',
      'shared/store',
      'shared/services',
      'functions/start-investigation',
      'infra/stack.ts',
    ])
      expect(rooms).toContain(room);
    const startHandler = modules.find((m) => m.path === 'functions/start-investigation/handler.ts');
    expect(startHandler?.imports.some((i) => i.startsWith('shared/services/'))).toBe(true);
  });

  it('flags an import across a floor (the rule itself can fail)', () => {
    const fake: SourceModule = {
      path: 'functions/x/handler.ts',
      imports: ['shared/store/keys-repository.ts'],
      packages: ['@aws-sdk/client-dynamodb'],
      typeOnly: [false],
    };
    expect(violations(fake)).toHaveLength(2);
  });

  it('every import stays on its floor or goes down', () => {
    expect(modules.flatMap(violations)).toEqual([]);
  });

  it('has no import circle between files', () => {
    expect(importCycles(modules)).toEqual([]);
  });

  it('has no circle between the folders of the domain and of the services', () => {
    const folder = (path: string) => path.replace(/\/[^/]+$/, '');
    // A folder's index.ts is its door: it re-exports the rooms below it, which may use the floor above.
    const inRoom = (prefix: string) =>
      modules.filter((m) => m.path.startsWith(prefix) && !m.path.endsWith('/index.ts'));
    expect(importCycles(inRoom('shared/domain/'), folder)).toEqual([]);
    expect(importCycles(inRoom('shared/services/'), folder)).toEqual([]);
  });
});

/**
 * The wrapper of each handler kind: it owns the logger's keys, the metrics flush and the error answer
 * its event source expects (docs/architecture.md, "Handler wrappers").
 */
const WRAPPERS =
  /^shared\/(api\/http-handler|handlers\/(scheduled-handler|queue-consumer|authorizer-handler)|services\/workflow\/workflow-step)\.ts$/;
/** What only a wrapper does; a handler doing it itself has set up its own lifecycle. */
const WRAPPER_WORK =
  /\bflushMetrics\b|\blogger\.(resetKeys|appendKeys)\b|\bprocessPartialResponse\b|\bmiddy\b/;

function unwrapped(module: SourceModule, source: string): string[] {
  const out: string[] = [];
  if (!module.imports.some((target) => WRAPPERS.test(target))) out.push(`${module.path}: imports no wrapper`);
  const own = source.match(WRAPPER_WORK);
  if (own) out.push(`${module.path}: does the wrapper's work itself (${own[0]})`);
  return out;
}

describe('every handler goes through the wrapper of its kind (docs/architecture.md)', () => {
  const handlers = modules.filter((m) => /^functions\/[^/]+\/handler\.ts$/.test(m.path));

  it('flags a handler without a wrapper, or one flushing its own metrics (the rule itself can fail)', () => {
    const bare: SourceModule = {
      path: 'functions/x/handler.ts',
      imports: ['shared/observability.ts', 'shared/services/x/x.ts'],
      packages: [],
      typeOnly: [false, false],
    };
    expect(unwrapped(bare, 'try { return await x(); } finally { flushMetrics(); }')).toEqual([
      'functions/x/handler.ts: imports no wrapper',
      "functions/x/handler.ts: does the wrapper's work itself (flushMetrics)",
    ]);
    const wrapped = { ...bare, imports: ['shared/handlers/scheduled-handler.ts', 'shared/services/x/x.ts'] };
    expect(unwrapped(wrapped, 'export const handler = scheduledHandler(() => x());')).toEqual([]);
  });

  it('every handler in functions/ imports its wrapper and leaves the lifecycle to it', () => {
    expect(handlers.length).toBeGreaterThan(40);
    const found = handlers.flatMap((m) => unwrapped(m, readFileSync(join(REPOSITORY_ROOT, m.path), 'utf8')));
    expect(found).toEqual([]);
  });
});

/** Named imports renamed with `as` in a source text (`{ a as b }`); `import * as x` is not one. */
function renamedImports(source: string): string[] {
  const out: string[] = [];
  for (const [, names] of source.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from/g))
    for (const name of names!.split(','))
      if (/\sas\s/.test(name.trim())) out.push(name.trim().replace(/\s+/g, ' '));
  return out;
}

describe('handlers say what they call (docs/architecture.md)', () => {
  it('finds a renamed import (the rule itself can fail)', () => {
    expect(
      renamedImports(
        "import {\n  incidentQueue,\n  ingestIncidents as ingest,\n} from '../../x';\nimport * as routes from '../../y';",
      ),
    ).toEqual(['ingestIncidents as ingest']);
  });

  it('no handler renames what it imports: route rows come through `routes.`, services by their own names', () => {
    const handlers = modules.filter((m) => /^functions\/[^/]+\/handler\.ts$/.test(m.path));
    expect(handlers.length).toBeGreaterThan(40);
    const renamed = handlers.flatMap((m) =>
      renamedImports(readFileSync(join(REPOSITORY_ROOT, m.path), 'utf8')).map((r) => `${m.path}: ${r}`),
    );
    expect(renamed).toEqual([]);
  });
});

const SIZE_ROOTS = ['shared', 'console/src', 'infra', 'local'];
const SOURCE = /\.(ts|tsx|mts|cjs|mjs)$/;

function sourceFolders(dir: string, out: Map<string, string[]>): void {
  const files: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) sourceFolders(full, out);
    else if (SOURCE.test(name)) files.push(full);
  }
  out.set(dir, files);
}

describe('rooms of a readable size', () => {
  const folders = new Map<string, string[]>();
  for (const root of SIZE_ROOTS) sourceFolders(join(REPOSITORY_ROOT, root), folders);
  const relativeTo = (path: string) => path.slice(REPOSITORY_ROOT.length + 1);

  it('no file over 500 lines, generated ones aside', () => {
    const long = [...folders.values()]
      .flat()
      .filter((file) => !file.includes('/generated/'))
      .map((file) => ({ file: relativeTo(file), lines: readFileSync(file, 'utf8').split('\n').length }))
      .filter(({ lines }) => lines > 500);
    expect(long).toEqual([]);
  });

  it('no folder with more than 15 source files side by side', () => {
    const crowded = [...folders.entries()]
      .filter(([dir, files]) => !dir.includes('/generated') && files.length > 15)
      .map(([dir, files]) => `${relativeTo(dir)}: ${files.length}`);
    expect(crowded).toEqual([]);
  });

  it('no constructor in infra/ over 60 lines: the stack and constructs are composed of named pieces', () => {
    const long: string[] = [];
    for (const file of [...folders.values()].flat().filter((f) => relativeTo(f).startsWith('infra/'))) {
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, start) => {
        const opening = /^(\s*)constructor\(/.exec(line);
        if (!opening) return;
        const end = lines.findIndex((l, i) => i > start && l === `${opening[1]}}`);
        const length = end - start + 1;
        if (end < 0 || length > 60) long.push(`${relativeTo(file)}:${start + 1}: ${length} lines`);
      });
    }
    expect(long).toEqual([]);
  });
});

/**
 * The table "Feature → its file on each floor" of docs/architecture.md: every path it names exists,
 * and every feature folder or module on a floor is named in some row, so a new feature needs a row.
 */
describe('feature → floor table of docs/architecture.md', () => {
  const ARCHITECTURE_DOC = 'docs/architecture.md';
  const FEATURE_TABLE_HEADING = '## Feature → its file on each floor';

  function tablePaths(markdown: string): Map<string, string[]> {
    const section = markdown.slice(markdown.indexOf(FEATURE_TABLE_HEADING));
    const lines = section.split('\n').filter((line) => line.startsWith('| '));
    const [header, , ...rows] = lines;
    const columns = (header ?? '').split('|').map((cell) => cell.trim());
    const byColumn = new Map<string, string[]>(columns.filter(Boolean).map((column) => [column, []]));
    for (const row of rows) {
      row.split('|').forEach((cell, index) => {
        const paths = [...cell.matchAll(/`([^`]+)`/g)].map((match) => (match[1] ?? '').replace(/\/$/, ''));
        byColumn.get(columns[index] ?? '')?.push(...paths);
      });
    }
    return byColumn;
  }

  function missingPaths(byColumn: Map<string, string[]>): string[] {
    return [...byColumn.values()].flat().filter((path) => {
      try {
        statSync(join(REPOSITORY_ROOT, path));
        return false;
      } catch {
        return true;
      }
    });
  }

  /** Feature folders and modules of each floor, keyed by the table column that must name them. */
  function floorFeatures(): Map<string, string[]> {
    const entries = (dir: string, keep: (name: string, isDir: boolean) => boolean) =>
      readdirSync(join(REPOSITORY_ROOT, dir))
        .filter((name) => keep(name, statSync(join(REPOSITORY_ROOT, dir, name)).isDirectory()))
        .map((name) => `${dir}/${name}`);
    const folders = (_name: string, isDir: boolean) => isDir && _name !== 'generated';
    return new Map([
      ['Route module', entries('shared/api/routes', (name) => name.endsWith('.ts'))],
      ['Handlers', entries('functions', folders)],
      ['Service', entries('shared/services', folders)],
      ['Store', entries('shared/store', folders)],
      ['Domain', entries('shared/domain', folders)],
    ]);
  }

  function unlisted(byColumn: Map<string, string[]>): string[] {
    return [...floorFeatures()].flatMap(([column, paths]) => {
      const named = byColumn.get(column) ?? [];
      return paths.filter((path) => !named.some((entry) => entry === path || entry.startsWith(`${path}/`)));
    });
  }

  const doc = readFileSync(join(REPOSITORY_ROOT, ARCHITECTURE_DOC), 'utf8');

  it('names only paths that exist', () => {
    expect(missingPaths(tablePaths(doc))).toEqual([]);
  });

  it('has a row for every feature folder or module on every floor', () => {
    expect(unlisted(tablePaths(doc))).toEqual([]);
  });

  it('fails on a row naming a missing path and on a feature folder without a row', () => {
    const withMissingPath = doc.replace('`shared/services/graph/`', '`shared/services/no-such-feature/`');
    expect(missingPaths(tablePaths(withMissingPath))).toEqual(['shared/services/no-such-feature']);
    expect(unlisted(tablePaths(withMissingPath))).toEqual(['shared/services/graph']);
  });
});

/**
 * The same two size rules over the tooling and the clients that SIZE_ROOTS leaves out: the bench,
 * the scripts, the CLI package and the functions' entry points (one folder per function is fine,
 * so it is the files side by side that count). Generated files stay exempt.
 */
const TOOLING_SIZE_ROOTS = ['bench', 'scripts', 'packages/cli/src', 'functions', 'bin'];

describe('tooling and clients of a readable size', () => {
  const folders = new Map<string, string[]>();
  for (const root of TOOLING_SIZE_ROOTS) sourceFolders(join(REPOSITORY_ROOT, root), folders);
  const relativeTo = (path: string) => path.slice(REPOSITORY_ROOT.length + 1);
  const handWritten = (path: string) => !path.includes('/generated') && !path.includes('/dist');

  it('covers bench/, scripts/ and packages/cli/src', () => {
    for (const root of ['bench/lib', 'scripts', 'packages/cli/src']) {
      expect(folders.has(join(REPOSITORY_ROOT, root))).toBe(true);
    }
  });

  it('no file over 500 lines, generated ones aside', () => {
    const long = [...folders.values()]
      .flat()
      .filter(handWritten)
      .map((file) => ({ file: relativeTo(file), lines: readFileSync(file, 'utf8').split('\n').length }))
      .filter(({ lines }) => lines > 500);
    expect(long).toEqual([]);
  });

  it('no folder with more than 15 source files side by side', () => {
    const crowded = [...folders.entries()]
      .filter(([dir, files]) => handWritten(dir) && files.length > 15)
      .map(([dir, files]) => `${relativeTo(dir)}: ${files.length}`);
    expect(crowded).toEqual([]);
  });
});
