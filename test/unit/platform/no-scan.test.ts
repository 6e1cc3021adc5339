import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No read path of the service may Scan a table (DESIGN.md: listing, search and graph reads are key
 * or index queries). This fails when a Scan appears in runtime code (shared/, functions/), in the
 * local runtime (local/) or as an IAM grant anywhere under infra/, unless the file is on the
 * allowlist below with the reason it may scan (operator tooling or a one-off migration, never a
 * request path).
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const SCANNED_DIRS = ['shared', 'functions', 'infra'];

/** Path (relative to the repository root) → why it may scan. Keep this empty unless unavoidable. */
const ALLOWLIST: Record<string, string> = {};

const SCAN_PATTERNS: readonly RegExp[] = [
  /\bScanCommand\b/, // @aws-sdk/client-dynamodb and lib-dynamodb
  /\bpaginateScan\b/,
  /\bParallelScan\b/,
  /['"`]dynamodb:Scan['"`]/, // IAM action
  /['"`]dynamodb:\*['"`]/, // IAM wildcard, which includes Scan
  /\bgrant(ReadData|ReadWriteData|FullAccess)\s*\(/, // CDK grants that include dynamodb:Scan
  /DynamoDB_20120810\.Scan\b/, // raw wire protocol target
  /\.scan\s*\(/, // v2-style DocumentClient.scan()
];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|mts|js|mjs|json|asl\.json)$/.test(name)) out.push(path);
  }
  return out;
}

function scanFindings(text: string): string[] {
  return text
    .split('\n')
    .map((line, i) => ({ line: line.trim(), number: i + 1 }))
    .filter(({ line }) => SCAN_PATTERNS.some((pattern) => pattern.test(line)))
    .map(({ line, number }) => `${number}: ${line}`);
}

describe('no DynamoDB Scan', () => {
  it('recognises every form of a Scan it guards against', () => {
    for (const sample of [
      "import { ScanCommand } from '@aws-sdk/lib-dynamodb';",
      'for await (const page of paginateScan({ client }, { TableName })) {}',
      "actions: ['dynamodb:Query', 'dynamodb:Scan'],",
      "actions: ['dynamodb:*'],",
      'table.grantReadData(fn);',
      "headers: { 'x-amz-target': 'DynamoDB_20120810.Scan' }",
      'await documentClient.scan(params).promise();',
    ]) {
      expect(scanFindings(sample), sample).toHaveLength(1);
    }
    for (const harmless of [
      'ScanIndexForward: false,',
      '// Listing is a Query, never a Scan.',
      'result.ScannedCount',
    ]) {
      expect(scanFindings(harmless), harmless).toEqual([]);
    }
  });

  it('finds none in shared/, functions/ and infra/ outside the allowlist', () => {
    const findings: string[] = [];
    for (const dir of SCANNED_DIRS) {
      for (const file of sourceFiles(join(ROOT, dir))) {
        const path = relative(ROOT, file);
        if (path in ALLOWLIST) continue;
        // Only the local runtime is runtime code under infra/; elsewhere under infra/ only grants matter.
        const text = readFileSync(file, 'utf8');
        const found =
          path.startsWith('infra/') && !path.startsWith('local/')
            ? scanFindings(text).filter((f) => /dynamodb:|grant(ReadData|ReadWriteData|FullAccess)/.test(f))
            : scanFindings(text);
        findings.push(...found.map((f) => `${path}:${f}`));
      }
    }
    expect(findings).toEqual([]);
  });

  it('keeps the allowlist honest: every entry exists and still scans', () => {
    for (const [path, reason] of Object.entries(ALLOWLIST)) {
      expect(reason.length, path).toBeGreaterThan(10);
      expect(scanFindings(readFileSync(join(ROOT, path), 'utf8')).length, path).toBeGreaterThan(0);
    }
  });
});
