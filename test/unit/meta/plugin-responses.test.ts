import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compactGraphNeighborhood,
  compactIncidentList,
  compactInvestigationReport,
  compactInvestigationResult,
  compactSearchResults,
  PLUGIN_LIMITS,
} from '../../../shared/api/plugin-responses';
import { GraphResponse } from '../../../shared/api/schemas/graph';
import { ListIncidentsResponse } from '../../../shared/api/schemas/incidents';
import {
  InvestigationReportResponse,
  StartInvestigationResultResponse,
} from '../../../shared/api/schemas/investigations';
import { SearchResponse } from '../../../shared/api/schemas/search';
import * as z from '../../../shared/zod';
import { publishedDocumentValidator } from '../../support/openapi-response-validator';

const exampleOf = (schema: z.core.$ZodType): any => structuredClone(z.globalRegistry.get(schema)?.example);
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');
const SESSION = 's_01JD6Z7QK3Q0V8Y5N2B4C6D8EF';

/** Every compacted body must still be what the OpenAPI document promises. */
function expectDocumented(method: string, path: string, body: unknown) {
  const result = publishedDocumentValidator().check({
    method,
    path,
    status: 200,
    contentType: 'application/json',
    body,
  });
  expect(result).toMatchObject({ ok: true });
}

function finding(i: number, text = `Finding ${i}`) {
  return {
    finding_id: `ip_classification:f${i}`,
    title: `Finding ${i}`,
    description: text,
    impact: text,
    severity: 'low',
    score: 10,
    source_tool: 'ip_classification',
    category: 'context',
    evidence: Array.from({ length: 15 }, (_, k) => `inc_${i}_${k}`),
  };
}

describe('plugin response caps', () => {
  it('leaves a typical answer exactly as it was, without a truncated flag, and never mutates its input', () => {
    const report = exampleOf(InvestigationReportResponse);
    const frozen = structuredClone(report);
    expect(compactInvestigationReport(report)).toEqual(frozen);
    expect(report).toEqual(frozen);
    expect(compactGraphNeighborhood(exampleOf(GraphResponse))).not.toHaveProperty('truncated');
    expect(compactIncidentList(exampleOf(ListIncidentsResponse))).not.toHaveProperty('truncated');
    expect(compactSearchResults(exampleOf(SearchResponse))).not.toHaveProperty('truncated');
  });

  it('caps the report: summary, findings (weakest go), finding texts and evidence, recommendations', () => {
    const body = exampleOf(StartInvestigationResultResponse);
    body.report.summary = 'S'.repeat(5_000);
    body.report.findings = Array.from({ length: 30 }, (_, i) => finding(i, 'x'.repeat(3_000)));
    body.report.recommendations = Array.from({ length: 25 }, (_, i) => `Step ${i}`);
    const out = compactInvestigationResult(body);
    expect(out.truncated).toBe(true);
    expect(out.report.summary).toHaveLength(PLUGIN_LIMITS.summaryChars);
    expect(out.report.summary.endsWith('…')).toBe(true);
    expect(out.report.findings.map((f: { finding_id: string }) => f.finding_id)).toEqual(
      body.report.findings.slice(0, 20).map((f: { finding_id: string }) => f.finding_id),
    );
    expect(out.report.findings[0].description).toHaveLength(PLUGIN_LIMITS.findingTextChars);
    expect(out.report.findings[0].evidence).toHaveLength(PLUGIN_LIMITS.evidence);
    expect(out.report.recommendations).toHaveLength(PLUGIN_LIMITS.recommendations);
    expect(bytes(out)).toBeLessThanOrEqual(PLUGIN_LIMITS.maxResponseBytes);
    expectDocumented('POST', '/api/v1/investigations/start', out);
  });

  it('caps graph neighbors at 100 (depth 2 goes first) and their evidence at 10', () => {
    const body = exampleOf(GraphResponse);
    const [template] = body.neighbors;
    body.neighbors = Array.from({ length: 150 }, (_, i) => ({
      ...template,
      value: `user${i}@contoso.example`,
      depth: i < 90 ? 1 : 2,
      evidence: Array.from({ length: 20 }, (_, k) => `inc_${i}_${k}`),
    }));
    const out = compactGraphNeighborhood(body);
    expect(out.truncated).toBe(true);
    expect(out.neighbors).toHaveLength(PLUGIN_LIMITS.neighbors);
    expect(out.neighbors.filter((n: { depth: number }) => n.depth === 1)).toHaveLength(90);
    expect(out.neighbors.every((n: { evidence: string[] }) => n.evidence.length === 10)).toBe(true);
    expectDocumented('GET', '/api/v1/graph/entity/203.0.113.66', out);
  });

  it('caps the entities of each incident and the summary of each search result', () => {
    const incidents = exampleOf(ListIncidentsResponse);
    incidents.incidents[0].entities = Array.from({ length: 40 }, (_, i) => ({
      type: 'host',
      value: `ws-${i}`,
    }));
    const listed = compactIncidentList(incidents);
    expect(listed.incidents[0].entities).toHaveLength(PLUGIN_LIMITS.incidentEntities);
    expect(listed.truncated).toBe(true);
    expectDocumented('GET', '/api/v1/incidents', listed);

    const search = exampleOf(SearchResponse);
    search.results[0].summary = 'word '.repeat(400);
    const found = compactSearchResults(search);
    expect(found.results[0].summary).toHaveLength(PLUGIN_LIMITS.searchSummaryChars);
    expect(found.truncated).toBe(true);
    expectDocumented('GET', '/api/v1/search?q=x', found);
  });

  it('keeps all 100 incidents of a full Sentinel page by dropping their SIEM links before any incident', () => {
    const body = exampleOf(ListIncidentsResponse);
    const [template] = body.incidents;
    body.incidents = Array.from({ length: 100 }, (_, i) => ({
      ...template,
      incident_id: `inc_${String(i).padStart(26, '0')}`,
      entities: Array.from({ length: 5 }, (_, k) => ({ type: 'host', value: `ws-01${k}` })),
    }));
    expect(bytes(body)).toBeGreaterThan(PLUGIN_LIMITS.maxResponseBytes);
    const out = compactIncidentList(body);
    expect(out.truncated).toBe(true);
    expect(out.incidents).toHaveLength(100);
    expect(out.incidents.some((i: object) => 'source_url' in i)).toBe(false);
    expect(out.incidents[99].link).toBe(template.link);
    expect(bytes(out)).toBeLessThanOrEqual(PLUGIN_LIMITS.maxResponseBytes);
    expectDocumented('GET', '/api/v1/incidents', out);
  });

  it('fits a page of extreme incidents into 64 KiB by dropping its tail, keeping links and IDs whole', () => {
    const body = exampleOf(ListIncidentsResponse);
    const [template] = body.incidents;
    body.incidents = Array.from({ length: 100 }, (_, i) => ({
      ...template,
      incident_id: `inc_${String(i).padStart(26, '0')}`,
      title: `T${i} ${'t'.repeat(500)}`,
      source_url: `https://siem.example.com/incidents/${i}?${'q'.repeat(2_000)}`,
    }));
    expect(bytes(body)).toBeGreaterThan(PLUGIN_LIMITS.maxResponseBytes);
    const out = compactIncidentList(body);
    expect(out.truncated).toBe(true);
    expect(bytes(out)).toBeLessThanOrEqual(PLUGIN_LIMITS.maxResponseBytes);
    expect(out.incidents[0].incident_id).toBe(body.incidents[0].incident_id);
    expect(out.incidents[0].title).toHaveLength(PLUGIN_LIMITS.incidentTitleChars);
    expect(out.incidents[0].link).toBe(body.incidents[0].link);
    expectDocumented('GET', '/api/v1/incidents', out);
  });

  it('empties raw tool facts before anything a reader needs when tool output is huge', () => {
    const body = exampleOf(StartInvestigationResultResponse);
    body.raw_results = {
      ip_classification: { status: 'succeeded', facts: { dump: 'z'.repeat(200_000) } },
    };
    const out = compactInvestigationResult(body);
    expect(out.truncated).toBe(true);
    expect(out.raw_results.ip_classification.facts).toEqual({});
    expect(out.report).toEqual(body.report);
    expectDocumented('POST', '/api/v1/investigations/start', out);
  });

  it('keeps any report within the byte budget and the documented schema', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 6_000 }),
        fc.integer({ min: 0, max: 12_000 }),
        (findings, textLength, summaryLength) => {
          const body = exampleOf(InvestigationReportResponse);
          body.report.summary = 'é'.repeat(summaryLength);
          body.report.findings = Array.from({ length: findings }, (_, i) =>
            finding(i, 'ü'.repeat(textLength)),
          );
          const out = compactInvestigationReport(body);
          expect(bytes(out)).toBeLessThanOrEqual(PLUGIN_LIMITS.maxResponseBytes);
          const kept = out.report.findings.length;
          expect(kept).toBeLessThanOrEqual(Math.min(findings, PLUGIN_LIMITS.findings));
          expect(out.report.findings.map((f: { finding_id: string }) => f.finding_id)).toEqual(
            body.report.findings.slice(0, kept).map((f: { finding_id: string }) => f.finding_id),
          );
          if (kept < findings || summaryLength > PLUGIN_LIMITS.summaryChars) expect(out.truncated).toBe(true);
          expectDocumented('GET', `/api/v1/sessions/${SESSION}`, out);
        },
      ),
      { numRuns: 60 },
    );
  });
});
