import type { Command } from 'commander';
import { UsageError } from './errors';

/**
 * Shell completion scripts generated from the command tree itself, so they list exactly the
 * commands and options this version has.
 */

interface Node {
  path: string[];
  subcommands: string[];
  options: string[];
  description: string;
}

function walk(command: Command, path: string[], out: Node[], inherited: string[]): void {
  const own = command.options.flatMap((o) => [o.long, o.short].filter((f): f is string => Boolean(f)));
  const options = [...new Set([...inherited, ...own, '--help'])];
  out.push({
    path,
    subcommands: command.commands.map((c) => c.name()),
    options,
    description: command.description(),
  });
  for (const sub of command.commands)
    walk(sub, [...path, sub.name()], out, path.length === 0 ? own : inherited);
}

function nodes(program: Command): Node[] {
  const out: Node[] = [];
  walk(program, [], out, []);
  return out;
}

function bash(program: Command, name: string): string {
  const cases = nodes(program)
    .map((n) => `    "${n.path.join(' ')}") words="${[...n.subcommands, ...n.options].join(' ')}" ;;`)
    .join('\n');
  const fn = `_${name.replace(/\W/g, '_')}_complete`;
  return `# ${name} completion for bash: eval "$(${name} completion bash)"
${fn}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" word words
  for word in "\${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
    case "$word" in -*) ;; *) case " $(${fn}_children "$path") " in *" $word "*) path="\${path:+$path }$word" ;; esac ;; esac
  done
  case "$path" in
${cases}
    *) words="" ;;
  esac
  COMPREPLY=( $(compgen -W "$words" -- "$cur") )
}
${fn}_children() {
  case "$1" in
${nodes(program)
  .map((n) => `    "${n.path.join(' ')}") echo "${n.subcommands.join(' ')}" ;;`)
  .join('\n')}
  esac
}
complete -o default -F ${fn} ${name}
`;
}

function zsh(program: Command, name: string): string {
  return `#compdef ${name}
# ${name} completion for zsh: eval "$(${name} completion zsh)"
autoload -U +X bashcompinit && bashcompinit
${bash(program, name)}`;
}

function fish(program: Command, name: string): string {
  const quote = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const all = nodes(program);
  const byPath = new Map(all.map((n) => [n.path.join(' '), n]));
  const lines = [`# ${name} completion for fish: ${name} completion fish | source`, `complete -c ${name} -f`];
  for (const node of all) {
    const condition =
      node.path.length === 0 ? '__fish_use_subcommand' : `__fish_seen_subcommand_from ${node.path.at(-1)}`;
    for (const sub of node.subcommands) {
      const summary = (byPath.get([...node.path, sub].join(' '))?.description ?? '').split('. ')[0] ?? '';
      lines.push(`complete -c ${name} -n ${quote(condition)} -a ${sub} -d ${quote(summary)}`);
    }
    if (node.path.length === 0) continue;
    for (const option of node.options.filter((o) => o.startsWith('--'))) {
      lines.push(`complete -c ${name} -n ${quote(condition)} -l ${option.slice(2)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

export function completionScript(program: Command, shell: string): string {
  const name = program.name();
  switch (shell) {
    case 'bash':
      return bash(program, name);
    case 'zsh':
      return zsh(program, name);
    case 'fish':
      return fish(program, name);
    default:
      throw new UsageError(`Unknown shell "${shell}": use bash, zsh or fish.`);
  }
}
