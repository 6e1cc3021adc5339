import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SubmitReportInput } from '../shared/domain/analyst/submit-report';
import * as z from '../shared/zod';

/**
 * The JSON Schema of the `submit_report` tool's input that the analyst offers the model, generated
 * from its zod declaration (shared/domain/analyst/submit-report.ts) ahead of time and committed, as
 * the OpenAPI documents are: converting it at run time put zod's JSON Schema generator (~20 KB) into
 * the analyst turn's bundle for one constant. `npm run analyst:schemas` rewrites it; a unit test fails
 * when it is out of date.
 */
export const SUBMIT_REPORT_SCHEMA_PATH = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../shared/domain/analyst/generated/submit-report-input.json',
);

export function submitReportSchemaSource(): string {
  const { $schema: _schema, ...schema } = z.toJSONSchema(SubmitReportInput, { io: 'input' }) as Record<
    string,
    unknown
  >;
  return `${JSON.stringify(schema, null, 2)}\n`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(SUBMIT_REPORT_SCHEMA_PATH, submitReportSchemaSource());
  console.log(`wrote ${SUBMIT_REPORT_SCHEMA_PATH}`);
}
