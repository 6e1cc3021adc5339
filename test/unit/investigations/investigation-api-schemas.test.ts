import { OpenAPIRegistry, OpenApiGeneratorV3 } from '@asteasolutions/zod-to-openapi';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z as classic } from 'zod';
import { toClassic } from '../../../shared/api/openapi';
import * as S from '../../../shared/api/schemas/investigations';
import { normaliseEntity } from '../../../shared/domain/core/entity-normalisation';
import {
  buildReport,
  type Report,
  rawResultsFrom,
  runTools,
  type ToolCall,
} from '../../../shared/domain/investigation';
import * as z from '../../../shared/zod';
import { context, incident } from './investigation-test-data';

describe('StartInvestigationRequest', () => {
  it('accepts an entity object or a bare string and applies defaults', () => {
    expect(S.StartInvestigationRequest.parse({ entity: '203.0.113.7' })).toEqual({
      entity: '203.0.113.7',
      background: false,
      include_tool_calls: false,
      include_raw_results: false,
      tlp: 'amber',
      refresh_intel: false,
    });
    expect(
      S.StartInvestigationRequest.parse({
        entity: { type: 'user', value: 'alice' },
        persona: 'CISO',
        background: true,
        include_tool_calls: true,
      }),
    ).toMatchObject({ entity: { type: 'user', value: 'alice' }, persona: 'CISO', background: true });
    expect(S.StartInvestigationRequest.parse({ entity: { value: 'example.com' } }).entity).toEqual({
      value: 'example.com',
    });
  });

  it('ignores unknown fields rather than failing the call', () => {
    const parsed = S.StartInvestigationRequest.parse({ entity: '8.8.8.8', question: 'is it bad?' });
    expect(parsed).not.toHaveProperty('question');
  });

  function issues(body: unknown) {
    const result = S.StartInvestigationRequest.safeParse(body);
    expect(result.success).toBe(false);
    return result.error!.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  }

  it('reports an invalid entity value and an unknown persona together, at their paths', () => {
    expect(issues({ entity: { type: 'ip', value: '999.1.1.1' }, persona: 'cto' })).toEqual([
      { path: 'entity.value', message: '"999.1.1.1" is not a valid IPv4 or IPv6 address' },
      {
        path: 'persona',
        message: 'unknown persona "cto"; valid personas: SOC Analyst (default), CISO, Threat Hunter',
      },
    ]);
    expect(issues({ entity: 'bad..name' })).toEqual([
      { path: 'entity', message: '"bad..name" has an empty label' },
    ]);
  });

  it.each([
    [{}, 'entity'],
    [{ entity: '' }, 'entity'],
    [{ entity: 'a'.repeat(257) }, 'entity'],
    [{ entity: { type: 'url', value: 'x' } }, 'entity'],
    [{ entity: '8.8.8.8', background: 'yes' }, 'background'],
    [{ entity: '8.8.8.8', persona: 'x'.repeat(65) }, 'persona'],
  ])('rejects %j at %s', (body, path) => {
    expect(issues(body)[0]!.path.startsWith(path)).toBe(true);
  });
});

describe('response schemas match what the domain produces', () => {
  it('types: domain Report and ToolCall fit the response schemas', () => {
    expectTypeOf<Report>().toExtend<z.output<typeof S.Report>>();
    expectTypeOf<ToolCall>().toExtend<z.output<typeof S.ToolCall>>();
  });

  it('values: a real report, tool calls and raw results validate', async () => {
    const entity = normaliseEntity('раypal.com');
    const toolCalls = await runTools(
      entity,
      context({ incidents: [incident('inc_1', 'high', 1, [entity, { type: 'user', value: 'alice' }])] }),
    );
    for (const persona of ['SOC Analyst', 'CISO', 'Threat Hunter']) {
      const report = buildReport({ entity, persona, toolCalls });
      const response = {
        session_id: 's_01JD6Z7QK3Q0V8Y5N2B4C6D8EF',
        run_id: 'r_1',
        session_url: 'https://sis.example.com/sessions/s_01JD6Z7QK3Q0V8Y5N2B4C6D8EF',
        status: 'completed',
        report,
        tool_calls: toolCalls,
        raw_results: rawResultsFrom(toolCalls),
      };
      expect(S.StartInvestigationResultResponse.parse(response)).toEqual(response);
    }
  });

  it.each(
    Object.entries(S).filter(
      ([, schema]) => schema instanceof z.ZodMiniType && z.globalRegistry.get(schema)?.example !== undefined,
    ),
  )('the OpenAPI example of %s is valid', (_name, schema) => {
    const example = z.globalRegistry.get(schema as z.ZodMiniType)!.example;
    expect(z.safeParse(schema as z.ZodMiniType, example).error?.issues).toBeUndefined();
  });

  it('generates one OpenAPI 3.0 component per schema id, each described', () => {
    const registry = new OpenAPIRegistry();
    const json = (schema: z.core.$ZodType) => ({
      content: { 'application/json': { schema: toClassic(schema) } },
    });
    registry.registerPath({
      method: 'post',
      path: '/start',
      request: { body: json(S.StartInvestigationRequest) },
      responses: {
        200: { description: 'r', ...json(S.StartInvestigationResultResponse) },
        202: { description: 'a', ...json(S.StartInvestigationAcceptedResponse) },
      },
    });
    registry.registerPath({
      method: 'get',
      path: '/sessions/{session_id}',
      request: {
        params: toClassic(S.SessionParams) as classic.ZodObject,
        query: toClassic(S.SessionHistoryQuery) as classic.ZodObject,
      },
      responses: {
        200: { description: 'h', ...json(S.SessionHistoryResponse) },
        201: { description: 'r', ...json(S.InvestigationReportResponse) },
        202: { description: 'c', ...json(S.CancelInvestigationResponse) },
      },
    });
    const doc = new OpenApiGeneratorV3(registry.definitions).generateDocument({
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
    });
    const schemas = doc.components!.schemas! as Record<string, { description?: string }>;
    for (const id of [
      'StartInvestigationRequest',
      'EntityInput',
      'StartInvestigationAcceptedResponse',
      'StartInvestigationResultResponse',
      'Report',
      'Finding',
      'ToolCall',
      'HistoryMessage',
      'HistoryEvent',
      'SessionHistoryResponse',
      'InvestigationReportResponse',
      'SessionStatus',
    ]) {
      expect(schemas[id], id).toBeDefined();
    }
    for (const id of [
      'StartInvestigationRequest',
      'EntityInput',
      'Report',
      'Finding',
      'SessionHistoryResponse',
    ]) {
      expect(schemas[id]!.description, id).toBeTruthy();
    }
  });
});
