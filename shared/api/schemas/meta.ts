import * as z from 'zod';

export const HealthResponse = /* @__PURE__ */ z
  .object({
    status: z.literal('ok'),
    service: z.string(),
    version: z.string(),
    tenant: z.string(),
    time: z.iso.datetime(),
  })
  .meta({ id: 'HealthResponse' });
