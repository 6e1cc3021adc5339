import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import * as z from '../../zod';

/**
 * A zod/mini schema as the Standard Schema with JSON Schema the SDK's registerTool takes. Mini schemas
 * validate through `~standard` but carry no `~standard.jsonSchema` (classic's converter), and the SDK's
 * fallback logs a warning at every cold start; this adds the converter, from zod's own toJSONSchema.
 * Arguments are described as the client sends them (`io: 'input'`: defaults optional, coercions plain).
 */
export function withJsonSchema(schema: z.core.$ZodType): StandardSchemaWithJSON {
  const convert = (io: 'input' | 'output') => (options: { target: string }) =>
    z.toJSONSchema(schema, {
      io,
      target: options.target === 'draft-07' ? 'draft-7' : 'draft-2020-12',
      unrepresentable: 'any',
    }) as Record<string, unknown>;
  return {
    '~standard': {
      ...(schema['~standard'] as StandardSchemaWithJSON['~standard']),
      jsonSchema: { input: convert('input'), output: convert('output') },
    },
  };
}
