import * as z from '../../zod';
import { withMeta } from '../../zod';

/**
 * The input of the `submit_report` tool, the only way the model ends an investigation. It carries
 * words, never numbers: the risk score and verdict stay computed from tool evidence.
 */
export const SUBMIT_REPORT_TOOL = 'submit_report';

export const SubmitReportInput = /* @__PURE__ */ (() =>
  z.strictObject({
    narrative: withMeta(z.string().check(z.trim(), z.minLength(1), z.maxLength(6000)), {
      description:
        'The assessment written for the persona; name only indicators that appear in the tool outputs',
    }),
    key_findings: withMeta(
      z.array(z.string().check(z.minLength(1), z.maxLength(200))).check(z.maxLength(20)),
      { description: 'finding_id values from the findings listed, most important first' },
    ),
    recommended_actions: withMeta(
      z.array(z.string().check(z.trim(), z.minLength(1), z.maxLength(500))).check(z.maxLength(10)),
      { description: 'Concrete next steps' },
    ),
    questions_for_human: withMeta(
      z.array(z.string().check(z.trim(), z.minLength(1), z.maxLength(500))).check(z.maxLength(10)),
      { description: 'What a person must confirm or decide; empty when nothing is open' },
    ),
  }))();

export type SubmitReport = z.infer<typeof SubmitReportInput>;

export const SUBMIT_REPORT_DESCRIPTION =
  'Finish the investigation with your written assessment. Call it exactly once, after any lookups. The risk score and verdict are computed by the service and cannot be set here.';

/** The validated input, or the problems as one line for an event. */
export function parseSubmitReport(
  input: unknown,
): { ok: true; value: SubmitReport } | { ok: false; problems: string } {
  const result = SubmitReportInput.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    problems: result.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`)
      .join('; '),
  };
}
