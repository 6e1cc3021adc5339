import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../shared/api/openapi';
import { ROUTES } from '../../../shared/api/routes';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../../..');
const REDOCLY = join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');
const CONFIG = join(ROOT, 'redocly.yaml');
/** Rules redocly.yaml keeps as warnings, each with its reason written there. */
const JUSTIFIED_WARNINGS = ['info-license', 'operation-4xx-response'];

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

/** Runs the Redocly CLI on one document (the same Node that runs the tests, not the PATH's). */
async function lint(document: unknown, name: string): Promise<LintProblem[]> {
  const file = join(dir, `${name}.json`);
  await writeFile(file, JSON.stringify(document, null, 2));
  // Exit code 1 just means problems were found; the JSON report says which.
  const { stdout } = await run(
    process.execPath,
    [REDOCLY, 'lint', file, '--config', CONFIG, '--format', 'json'],
    { cwd: ROOT, maxBuffer: 32 * 1024 * 1024, env: { ...process.env, REDOCLY_TELEMETRY: 'off' } },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  const report = JSON.parse(stdout) as { problems: LintProblem[] };
  return report.problems;
}

function describeProblems(problems: LintProblem[]): string {
  return problems
    .map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`)
    .join('\n');
}

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sis-openapi-lint-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('redocly lint of the generated OpenAPI documents', () => {
  const serverUrl = 'https://abc123.execute-api.eu-west-1.amazonaws.com/prod';

  it.each(['full', 'plugin'] as const)(
    'finds no error in the %s document',
    async (view) => {
      const problems = await lint(buildOpenApiDocument(ROUTES, { serverUrl, view }), view);
      const errors = problems.filter((p) => p.severity === 'error');
      expect(errors, describeProblems(errors)).toEqual([]);
      const unexpected = problems.filter((p) => !JUSTIFIED_WARNINGS.includes(p.ruleId));
      expect(unexpected, describeProblems(unexpected)).toEqual([]);
      // The 4XX exemption covers only the public documents, which take no input and no key.
      const publicPaths = ROUTES.filter((r) => r.access.kind === 'public').map((r) => r.path);
      for (const problem of problems.filter((p) => p.ruleId === 'operation-4xx-response')) {
        const path = decodeURIComponent(problem.location[0]?.pointer ?? '')
          .replace(/^#\/paths\//, '')
          .split('/')
          .slice(0, -2)
          .join('/')
          .replaceAll('~1', '/');
        expect(publicPaths, problem.location[0]?.pointer).toContain(path);
      }
    },
    60_000,
  );

  it('fails a document that loses what a model needs (a description, a valid example)', async () => {
    const document = structuredClone(
      buildOpenApiDocument(ROUTES, { serverUrl, view: 'plugin' }),
    ) as unknown as {
      paths: Record<string, Record<string, { description?: string }>>;
      components: { schemas: Record<string, { example?: unknown }> };
    };
    delete document.paths['/api/v1/incidents']?.get?.description;
    const incidents = document.components.schemas.ListIncidentsResponse as {
      example: { incidents: unknown };
    };
    incidents.example.incidents = 'not a list';
    const rules = (await lint(document, 'broken')).filter((p) => p.severity === 'error').map((p) => p.ruleId);
    expect(rules).toEqual(expect.arrayContaining(['operation-description', 'no-invalid-schema-examples']));
  }, 60_000);
});
