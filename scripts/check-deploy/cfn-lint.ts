import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Finding } from './limit-checks';

export const CFN_LINT_INSTALL =
  'cfn-lint is required: install it with `pip install cfn-lint==1.51.0` (or `pipx install cfn-lint==1.51.0`) so that `cfn-lint --version` works';

/**
 * cfn-lint on the PATH, else under pyenv: the machine image has it in the pyenv Python 3.11, whose
 * shims are on an interactive shell's PATH only (CI's non-interactive bash does not source them).
 */
export function findCfnLint(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':'))
    if (dir && existsSync(join(dir, 'cfn-lint'))) return join(dir, 'cfn-lint');
  const pyenvRoot = process.env.PYENV_ROOT ?? join(homedir(), '.pyenv');
  const versions = join(pyenvRoot, 'versions');
  if (!existsSync(versions)) return undefined;
  for (const version of readdirSync(versions).sort().reverse()) {
    const candidate = join(versions, version, 'bin', 'cfn-lint');
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Known false positives, each with why it is one. Matched on rule and message; anything else fails.
 */
export const CFN_LINT_SUPPRESSIONS: readonly { rule: string; message: RegExp; reason: string }[] = [
  {
    rule: 'E3601',
    message: /OutputPath/,
    reason:
      "cfn-lint's Step Functions schema refuses OutputPath on a Succeed state, which the Amazon States Language allows (https://states-language.net/spec.html#succeed-state: Succeed states may have InputPath and OutputPath)",
  },
];

interface CfnLintMatch {
  Rule: { Id: string };
  Level: string;
  Message: string;
  Filename: string;
  Location: { Path?: unknown[] };
}

export interface CfnLintRun {
  /** `cfn-lint --version`'s answer, printed by the check so a run shows the linter really ran. */
  version?: string;
  byFile: Map<string, Finding[]>;
  /** How often each suppression was hit: one never hit is stale and should go. */
  suppressed: Map<string, number>;
}

/**
 * One cfn-lint run over every template; findings keyed by template file. `version` also asks
 * `cfn-lint --version` (a second Python start, ~2 s), for the script's report.
 */
export function cfnLint(files: readonly string[], options: { version?: boolean } = {}): CfnLintRun {
  const binary = findCfnLint();
  const byFile = new Map<string, Finding[]>(files.map((file) => [file, []]));
  const suppressed = new Map(CFN_LINT_SUPPRESSIONS.map((s) => [`${s.rule} ${s.message.source}`, 0]));
  if (!binary) {
    for (const file of files) byFile.get(file)?.push({ check: 'cfn-lint', message: CFN_LINT_INSTALL });
    return { byFile, suppressed };
  }
  const version = options.version
    ? execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim()
    : undefined;
  let output: string;
  try {
    // Only errors fail the check, so rules that can only warn or inform are not run (~15% faster).
    output = execFileSync(binary, ['--format', 'json', '--ignore-checks', 'W', 'I', '--', ...files], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    // cfn-lint exits non-zero when it finds something; its JSON is still on stdout.
    output = String((error as { stdout?: string }).stdout ?? '');
    if (!output.trim().startsWith('['))
      throw new Error(`cfn-lint failed to run: ${String((error as Error).message)}`);
  }
  for (const match of JSON.parse(output || '[]') as CfnLintMatch[]) {
    if (match.Level !== 'Error') continue;
    const suppression = CFN_LINT_SUPPRESSIONS.find(
      (s) => s.rule === match.Rule.Id && s.message.test(match.Message),
    );
    if (suppression) {
      const key = `${suppression.rule} ${suppression.message.source}`;
      suppressed.set(key, (suppressed.get(key) ?? 0) + 1);
      continue;
    }
    const where = (match.Location.Path ?? []).join('/');
    byFile
      .get(match.Filename)
      ?.push({ check: `cfn-lint:${match.Rule.Id}`, message: `${where}: ${match.Message}` });
  }
  return { ...(version ? { version } : {}), byFile, suppressed };
}
