import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The project's own import graph, read from the source text: every relative import, re-export,
 * dynamic import and require of each TypeScript file under the given roots, resolved to a file.
 * Small on purpose (no compiler): the architecture test only needs who imports whom.
 */
export interface SourceModule {
  /** Path relative to the repository root, with forward slashes. */
  path: string;
  /** Resolved relative imports (repository paths). */
  imports: string[];
  /** Bare specifiers (packages), e.g. `@aws-sdk/client-dynamodb`. */
  packages: string[];
  /** Whether each import is type-only, in the order of `imports`. */
  typeOnly: boolean[];
}

export const REPOSITORY_ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../..');

const SOURCE = /\.(ts|tsx|mts)$/;
const IMPORT =
  /(?:^|[\s;])(import\s+type\s|import\s|export\s+type\s|export\s)(?:[^'"]*?\sfrom\s*)?['"]([^'"]+)['"]|(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g;

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
}

function resolveImport(fromFile: string, specifier: string): string | undefined {
  const base = resolve(dirname(fromFile), specifier);
  for (const suffix of ['', '.ts', '.tsx', '/index.ts', '/index.tsx']) {
    const candidate = base + suffix;
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  if (specifier.endsWith('.js')) {
    const ts = `${base.slice(0, -3)}.ts`;
    if (existsSync(ts)) return ts;
  }
  return undefined;
}

/** Strips comments so that an example import inside a doc comment is not read as an import. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

export function readSourceModules(roots: readonly string[]): SourceModule[] {
  const files: string[] = [];
  for (const root of roots) walk(join(REPOSITORY_ROOT, root), files);
  return files.map((file) => {
    const text = withoutComments(readFileSync(file, 'utf8'));
    const imports: string[] = [];
    const packages: string[] = [];
    const typeOnly: boolean[] = [];
    for (const match of text.matchAll(IMPORT)) {
      const specifier = match[2] ?? match[3];
      if (!specifier) continue;
      if (specifier.startsWith('.')) {
        const target = resolveImport(file, specifier);
        if (!target) continue;
        imports.push(relative(REPOSITORY_ROOT, target).split('\\').join('/'));
        typeOnly.push(/type\s$/.test(match[1] ?? ''));
      } else packages.push(specifier);
    }
    return { path: relative(REPOSITORY_ROOT, file).split('\\').join('/'), imports, packages, typeOnly };
  });
}

/** Every cycle's members (strongly connected components of more than one module, or a self-import). */
export function importCycles(modules: readonly SourceModule[], edgeOf = (path: string) => path): string[][] {
  const graph = new Map<string, Set<string>>();
  for (const module of modules) {
    const from = edgeOf(module.path);
    const targets = graph.get(from) ?? new Set<string>();
    for (const target of module.imports) {
      const to = edgeOf(target);
      if (to !== from || edgeOf === undefined) targets.add(to);
    }
    graph.set(from, targets);
  }
  // Tarjan's strongly connected components, iterative-free recursion is fine at this size.
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (node: string) => {
    indices.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, indices.get(next)!));
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) connect(node);
  return cycles;
}
