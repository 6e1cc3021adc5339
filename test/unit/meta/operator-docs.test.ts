import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../packages/cli/src/program';
import { REPO } from '../../support/sis-cli';

/**
 * What the operator docs say about the CLI, the Node engines and the Security Copilot side stays
 * true (issue 35 item 7): the commands they name exist, every command group is listed where the
 * docs promise a list, and the plugin page keeps its prerequisites and troubleshooting.
 */
const read = (path: string) => readFileSync(join(REPO, path), 'utf8');

/** Each command group of the CLI package with its subcommands and their aliases. */
function commandTree(): Map<string, Set<string>> {
  const names = (command: Command) => [command.name(), ...command.aliases()];
  return new Map(
    buildProgram()
      .commands.filter((c) => c.name() !== 'help')
      .map((group) => [group.name(), new Set(group.commands.flatMap(names))]),
  );
}

/** `sis <group> <sub>|<sub>` in a text, as [group, subs]; the project-only `admin` commands aside. */
function namedCommands(text: string, prefix: string): [string, string[]][] {
  const found = text.matchAll(
    new RegExp(`${prefix}([a-z][a-z-]*)((?: [a-z][a-z-]*(?:\\|[a-z][a-z-]*)*)?)`, 'gm'),
  );
  return [...found]
    .map((m): [string, string[]] => [m[1]!, m[2] ? m[2].trim().split('|') : []])
    .filter(([group]) => group !== 'admin');
}

function expectExisting(named: [string, string[]][], tree: Map<string, Set<string>>) {
  for (const [group, subs] of named) {
    expect(tree.has(group), `sis ${group}`).toBe(true);
    const known = tree.get(group)!;
    // A word after a leaf command is its argument (sis graph alice), not a subcommand.
    if (known.size > 0) for (const sub of subs) expect(known.has(sub), `sis ${group} ${sub}`).toBe(true);
  }
}

describe('the CLI in the operator docs', () => {
  const tree = commandTree();

  it('operations.md names what the CLI does (not "only admin bootstrap"), and only commands that exist', () => {
    const operations = read('docs/operations.md');
    expect(operations).not.toMatch(/has only `?admin bootstrap/);
    const named = namedCommands(operations, 'sis (?:--profile \\S+ )?');
    expect(named.map(([group]) => group)).toEqual(
      expect.arrayContaining(['keys', 'feeds', 'connectors', 'webhooks', 'allowlist', 'smoke']),
    );
    expectExisting(named, tree);
  });

  it("the README's command list and docs/cli.md name every command group, and only existing ones", () => {
    const readme = read('README.md');
    const paragraph = readme.slice(
      readme.indexOf('The `sis` command line ('),
      readme.indexOf('\n\n', readme.indexOf('The `sis` command line (')),
    );
    const listed = namedCommands(paragraph, '`').filter(([group]) => group !== 'sis');
    expect(listed.map(([group]) => group).sort()).toEqual(expect.arrayContaining([...tree.keys()].sort()));
    expectExisting(listed, tree);
    const cli = read('docs/cli.md');
    for (const group of tree.keys())
      expect(cli, `docs/cli.md: sis ${group}`).toMatch(new RegExp(`^(?:\\S+=\\S+ )*sis ${group}\\b`, 'm'));
    expectExisting(
      namedCommands(cli, '^sis ').filter(([group]) => tree.has(group)),
      tree,
    );
    expect(`${readme}\n${cli}`).not.toMatch(/keys create [^\n]*--scope /);
  });
});

describe('the Node engines the README warns about', () => {
  /** Whether an `engines.node` range admits some Node 20 release: an alternative starting at 20 or lower. */
  const admitsNode20 = (range: string) =>
    range.split('||').some((alternative) => Number(/\d+/.exec(alternative)?.[0] ?? 0) <= 20);

  it('names only packages of the lock file whose engines refuse Node 20, and says where the full list is', () => {
    const readme = read('README.md');
    const sentence = /On Node 20, `npm install` prints an `EBADENGINE` warning[\s\S]*?installed them/.exec(
      readme,
    )?.[0];
    expect(sentence).toBeDefined();
    expect(sentence).toContain('package-lock.json');
    const lock = JSON.parse(read('package-lock.json')) as {
      packages: Record<string, { engines?: { node?: string } }>;
    };
    const refusing = Object.entries(lock.packages)
      .filter(([path, p]) => path && p.engines?.node && !admitsNode20(p.engines.node))
      .map(([path]) => path.replace(/^.*node_modules\//, ''));
    const named = [...sentence!.matchAll(/\b(vitest|undici|commander)\b/g)].map((m) => m[1]!);
    expect(named).toHaveLength(3);
    for (const name of named) expect(refusing, name).toContain(name);
    if (sentence!.includes('middy'))
      expect(refusing.filter((n) => n.startsWith('@middy/')).length).toBeGreaterThan(0);
  });
});

describe('docs/plugin.md, the Security Copilot side', () => {
  const plugin = read('docs/plugin.md');

  it("says who may add custom plugins, in which scope, and that Microsoft's cloud must reach the API", () => {
    const before = plugin.slice(
      plugin.indexOf("### Before you start: Security Copilot's side"),
      plugin.indexOf('### Microsoft Security Copilot\n'),
    );
    expect(before).toMatch(/only Security Copilot \*\*owners\*\* can add and manage custom plugins/);
    expect(before).toContain('**Plugin settings**');
    expect(before).toMatch(/\*\*user scope\*\*[\s\S]*\*\*organisation scope\*\*/);
    expect(before).toContain('*Manage plugins in Microsoft Security Copilot*');
    expect(before).toMatch(/\*\*Microsoft's cloud must reach the API\.\*\*/);
    expect(before).toMatch(/Do not restrict the stage by source address/);
  });

  it('has a troubleshooting section for 401, 403 and a last_used_at never set', () => {
    const troubleshooting = plugin.slice(
      plugin.indexOf('## Troubleshooting'),
      plugin.indexOf('## Limitations'),
    );
    for (const symptom of ['401', '403', '`last_used_at` of the plugin key never set', '429'])
      expect(troubleshooting).toContain(symptom);
  });

  it('does not tell a custom-domain deployment that the URL ends in /prod', () => {
    expect(plugin).not.toMatch(/ending in \/prod/);
  });
});
