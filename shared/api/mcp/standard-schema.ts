import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import * as z from '../../zod';

/**
 * A zod/mini schema as the Standard Schema with JSON Schema the SDK's registerTool takes. Mini schemas
 * validate through `~standard` but carry no `~standard.jsonSchema` (classic's converter), and the SDK's
 * fallback logs a warning at every cold start; this adds the converter, from zod's own toJSONSchema.
 * Arguments are described as the client sends them (`io: 'input'`: defaults optional, coercions plain).
 */
export function withJsonSchema(schema: z.core.$ZodType): StandardSchemaWithJSON {
  // Each request builds its server afresh (stateless), so the conversion is kept per schema, io and
  // target: the report schema's alone took tens of milliseconds on every tools/list.
  const converted = new Map<string, Record<string, unknown>>();
  const convert = (io: 'input' | 'output') => (options: { target: string }) => {
    const target = options.target === 'draft-07' ? 'draft-7' : 'draft-2020-12';
    const key = `${io} ${target}`;
    let json = converted.get(key);
    if (!json) {
      json = z.toJSONSchema(schema, { io, target, unrepresentable: 'any' }) as Record<string, unknown>;
      converted.set(key, json);
    }
    return json;
  };
  return {
    '~standard': {
      ...(schema['~standard'] as StandardSchemaWithJSON['~standard']),
      jsonSchema: { input: convert('input'), output: convert('output') },
    },
  };
}
