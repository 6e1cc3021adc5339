import { deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * Large JSON values (tool calls with their findings, reports) are stored deflated in a binary
 * attribute: DynamoDB bills reads per 4 KB and writes per 1 KB of item, and JSON of this kind
 * deflates to about half. Small ones stay plain (deflate gains nothing on a 200-byte event).
 */
export const PACK_MIN_BYTES = 400;

/**
 * zlib's preset dictionary for reports: a report's field names, fixed values and scoring formula,
 * so deflate can refer back to them from its first byte. A report is 2-3 KB of JSON that deflates
 * to 0.8-1.1 KB alone and to 0.5-0.8 KB with this: its item stays under 1 KB, one write unit (two
 * in the completing transaction) where about half the reports took two (four). It is a hint: any
 * report round-trips. Reports packed with it say so by their attribute (`report_zd1`), so this
 * text must never change; a better dictionary is a new version beside it (the digest is pinned in
 * test/integration/sessions/sessions-records.test.ts).
 */
export const REPORT_DICTIONARY_V1 = /* @__PURE__ */ Buffer.from(
  '"severity":"low","severity":"medium","severity":"high","severity":"critical","category":"threat",' +
    '"verdict":"suspicious","verdict":"malicious","role":"related",' +
    '"contributions":[{"finding_id":"","title":"","source_tool":"","score":,"points":}],' +
    '"sources":[{"source_tool":"","findings":1,"alone":,"points":}]' +
    '{"summary":"","risk_score":,"verdict":"benign","persona":"SOC Analyst",' +
    '"entities":[{"type":"ip","value":"","role":"investigated"}],' +
    '"findings":[{"finding_id":"","title":"","description":"","impact":"","severity":"info","score":0,' +
    '"source_tool":"","category":"context","evidence":[]}],"recommendations":[""],' +
    '"coverage":{"tools_run":4,"tools_succeeded":4,"tools_failed":[],"tools_timed_out":[]},' +
    '"score_explanation":{"method":"noisy_or","formula":"risk = round(100 × (1 − Π (1 − score_i / 100)))",' +
    '"risk_score":0,"verdict":"benign","verdict_reason":"risk 0 < 30 and 4 of 4 tools succeeded → benign",' +
    '"contributions":[],"sources":[]}}',
);
const DICTIONARIES: Record<string, { suffix: string; dictionary: Buffer }> = {
  report: { suffix: '_zd1', dictionary: REPORT_DICTIONARY_V1 },
};

/**
 * `value` as the attribute(s) to store under `name`: plain when small, else deflated in `<name>_z`,
 * or in `<name><suffix>` with the name's preset dictionary (reports).
 */
export function packed(name: string, value: object): Record<string, unknown> {
  const json = JSON.stringify(value);
  if (json.length < PACK_MIN_BYTES) return { [name]: value };
  const preset = DICTIONARIES[name];
  if (preset) return { [`${name}${preset.suffix}`]: deflateRawSync(json, { dictionary: preset.dictionary }) };
  return { [`${name}_z`]: deflateRawSync(json) };
}

/** The value `packed` stored under `name` in `item`, whichever way it was stored; undefined when absent. */
export function unpacked<T = Record<string, unknown>>(
  item: Record<string, unknown>,
  name: string,
): T | undefined {
  const preset = DICTIONARIES[name];
  const withDictionary = preset ? item[`${name}${preset.suffix}`] : undefined;
  if (preset && withDictionary instanceof Uint8Array) {
    return JSON.parse(inflateRawSync(withDictionary, { dictionary: preset.dictionary }).toString('utf8'));
  }
  const zipped = item[`${name}_z`];
  if (zipped instanceof Uint8Array) return JSON.parse(inflateRawSync(zipped).toString('utf8'));
  return item[name] as T | undefined;
}
