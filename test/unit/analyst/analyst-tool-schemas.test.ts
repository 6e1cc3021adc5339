import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SUBMIT_REPORT_SCHEMA_PATH, submitReportSchemaSource } from '../../../scripts/analyst-tool-schemas';
import { toolSpecs } from '../../../shared/domain/analyst';

describe('shared/domain/analyst/generated/submit-report-input.json', () => {
  it('holds the JSON Schema SubmitReportInput generates (run `npm run analyst:schemas` after changing it)', () => {
    expect(readFileSync(SUBMIT_REPORT_SCHEMA_PATH, 'utf8')).toBe(submitReportSchemaSource());
  });

  it('is the input schema of the submit_report tool offered to the model', () => {
    const submit = toolSpecs([]).find((spec) => spec.toolSpec.name === 'submit_report');
    expect(JSON.stringify(submit?.toolSpec.inputSchema.json)).toBe(
      JSON.stringify(JSON.parse(submitReportSchemaSource())),
    );
  });
});
