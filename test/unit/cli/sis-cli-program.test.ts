import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { ApiError, describeFailure } from '../../../packages/cli/src/api';
import { completionScript } from '../../../packages/cli/src/completion';
import { parseDuration, sinceToTime } from '../../../packages/cli/src/durations';
import { resolveTarget, saveProfile } from '../../../packages/cli/src/profiles';
import { buildProgram } from '../../../packages/cli/src/program';

function everyCommand(command: Command): Command[] {
  return [command, ...command.commands.flatMap(everyCommand)];
}

describe('sis command tree', () => {
  it('gives every command help with an example', () => {
    const commands = everyCommand(buildProgram());
    expect(commands.length).toBeGreaterThan(15);
    for (const command of commands) {
      let help = '';
      command.configureOutput({ writeOut: (s) => (help += s) });
      command.exitOverride();
      expect(() => command.help()).toThrow();
      expect(help, command.name()).toMatch(/Examples:\n( {2}\$ .*\n)* {2}\$ sis /);
    }
  });

  it('prints completion scripts for bash, zsh and fish that name every subcommand', () => {
    const program = buildProgram();
    for (const shell of ['bash', 'zsh', 'fish']) {
      const script = completionScript(program, shell);
      for (const name of [
        'investigate',
        'sessions',
        'watch',
        'rotate',
        'incidents',
        'graph',
        'search',
        'configure',
      ]) {
        expect(script, shell).toContain(name);
      }
    }
    const dir = mkdtempSync(join(tmpdir(), 'sis-completion-'));
    try {
      const file = join(dir, 'sis.bash');
      writeFileSync(file, completionScript(program, 'bash'));
      // bash parses it and completes `sis keys r` to rotate
      const words = execFileSync(
        'bash',
        [
          '-c',
          `source ${file}; COMP_WORDS=(sis keys r); COMP_CWORD=2; _sis_complete; echo "\${COMPREPLY[@]}"`,
        ],
        { encoding: 'utf8' },
      );
      expect(words.trim()).toBe('rotate');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(() => completionScript(program, 'tcsh')).toThrow(/bash, zsh or fish/);
    // starts a bash process: at the shared machine's load a few seconds are not enough
  }, 30_000);
});

describe('option spellings', () => {
  it('spells scopes --scopes everywhere; the singular is accepted but hidden', () => {
    const options = everyCommand(buildProgram()).flatMap((command) =>
      command.options.map((option) => ({ command: command.name(), option })),
    );
    const scopeOptions = options.filter(({ option }) => /^--scopes?$/.test(option.long ?? ''));
    expect(scopeOptions.length).toBeGreaterThan(0);
    for (const { command, option } of scopeOptions) {
      expect([command, option.long, option.hidden], command).toEqual([
        command,
        option.long,
        option.long === '--scope',
      ]);
    }
    const create = everyCommand(buildProgram()).find(
      (c) => c.name() === 'create' && c.parent?.name() === 'keys',
    )!;
    create.exitOverride().action(() => undefined);
    create.parse(['--name', 'n', '--scopes', 'a,b', '--scope', 'c'], { from: 'user' });
    expect([create.opts().scopes, create.opts().scope]).toEqual([['a', 'b'], ['c']]);
    let help = '';
    create.configureOutput({ writeOut: (s) => (help += s) });
    expect(() => create.help()).toThrow();
    expect(help).toContain('--scopes <scopes>');
    expect(help).not.toMatch(/--scope\b(?!s)/);
  });
});

describe('durations', () => {
  it('reads grace periods and --since', () => {
    expect(parseDuration('90', '--grace')).toBe(90);
    expect(parseDuration('15m', '--grace')).toBe(900);
    expect(parseDuration('7d', '--grace')).toBe(604_800);
    expect(() => parseDuration('soon', '--grace')).toThrow(/Invalid --grace/);
    const now = new Date('2026-11-23T12:00:00Z');
    expect(sinceToTime('24h', now)).toBe('2026-11-22T12:00:00.000Z');
    expect(sinceToTime('2026-11-01', now)).toBe('2026-11-01');
  });
});

describe('target resolution', () => {
  it('prefers --profile, then SIS_API_URL/SIS_API_KEY, then the default profile; stdin keys win', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sis-profiles-'));
    try {
      const env = { SIS_CONFIG_DIR: dir };
      saveProfile('default', { api_url: 'https://default.example', api_key: 'k-default' }, env);
      saveProfile('prod', { api_url: 'https://prod.example/', api_key: 'k-prod' }, env);
      expect(resolveTarget({}, env)).toEqual({ apiUrl: 'https://default.example', apiKey: 'k-default' });
      const withEnv = { ...env, SIS_API_URL: 'https://env.example', SIS_API_KEY: 'k-env' };
      expect(resolveTarget({}, withEnv)).toEqual({ apiUrl: 'https://env.example', apiKey: 'k-env' });
      expect(resolveTarget({ profile: 'prod' }, withEnv)).toEqual({
        apiUrl: 'https://prod.example',
        apiKey: 'k-prod',
      });
      expect(resolveTarget({ profile: 'prod', stdinKey: 'k-stdin' }, env).apiKey).toBe('k-stdin');
      expect(() => resolveTarget({ profile: '../etc' }, env)).toThrow(/Invalid profile name/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('failure lines', () => {
  const answer = (status: number, details: { path: string; message: string }[] = []) =>
    describeFailure(
      new ApiError('startInvestigation', status, 'x', 'server text', 'req-1', undefined, details),
    );

  it('maps 400 to usage with each failing field, 5xx to a retry line with the request ID', () => {
    const invalid = answer(400, [{ path: 'body.entity', message: 'must not be empty' }]);
    expect([invalid.exitCode, invalid.message]).toEqual([
      2,
      'Invalid request: body.entity: must not be empty',
    ]);
    // Two rules refusing one field (zod's minimum and the service's own check) read as one error.
    const twice = answer(400, [
      { path: 'entity', message: 'Too small: expected string to have >=1 characters' },
      { path: 'entity', message: 'value must not be empty' },
      { path: 'tlp', message: 'Invalid option' },
    ]);
    expect(twice.message).toBe(
      'Invalid request: entity: Too small: expected string to have >=1 characters; tlp: Invalid option',
    );
    const broken = answer(500);
    expect(broken.exitCode).toBe(1);
    expect(broken.message).toMatch(/HTTP 500\) \(request req-1\); retry shortly/);
    expect(answer(503).message).toMatch(/HTTP 503/);
  });
});
