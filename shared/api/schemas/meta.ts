import * as z from '../../zod';
import { withMeta } from '../../zod';

export const HealthResponse = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      status: z.literal('ok'),
      service: z.string(),
      version: z.string(),
      tenant: z.string(),
      time: z.iso.datetime(),
    }),
    { id: 'HealthResponse' },
  ))();

/** The body of both OpenAPI document routes (no component id: each use is inlined). */
export const OpenApiDocument = /* @__PURE__ */ (() =>
  withMeta(z.record(z.string(), z.unknown()), { description: 'An OpenAPI 3.0.1 document' }))();

/** The ai-plugin.json manifest, documented as a free-form object. */
export const AiPluginManifest = /* @__PURE__ */ (() => z.record(z.string(), z.unknown()))();
