import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

/**
 * The service's zod: zod/mini with English messages. Every schema a Lambda function loads is built
 * with it: the full zod API ("classic") costs tens of milliseconds of import CPU at each cold start
 * (issue #17), and only the OpenAPI generator (shared/api/openapi.ts) needs it. Mini spells checks
 * as `.check(...)` and wrappers as functions (`z.optional(x)`, `z._default(x, v)`, `z.pipe(x,
 * z.transform(fn))`); parsing and messages are the same core code.
 *
 * Classic sets the English locale on its first schema; mini sets none, so a message would read
 * "Invalid input" without it. Importing zod through this module sets it before anything validates,
 * in unit tests that never load the configuration as well.
 *
 * A module-level schema is built in a function called at once and marked pure (esbuild's PURE
 * annotation comment before `(() => ...)()`), so that a bundle which imports the module but not the
 * schema does not build it at cold start: esbuild drops an unused pure call only when its arguments
 * are free of side effects, and mini's function forms put every nested schema in an argument
 * (classic's method chains kept them in the callee, which esbuild does not look into).
 *
 * This comment must not spell the annotation itself: esbuild reads any comment containing it right
 * before a call as one, and dropped the locale call below from every minified bundle
 * (test/infra/zod-messages-bundling).
 */
z.config(en());
/*
 * No generated fast paths: zod otherwise compiles a parser (`new Function`) for each object schema on
 * its first parse, and in a Lambda function nearly every parse is a first one (the configuration once
 * per cold start, a request's few small objects), so compiling costs more than it saves.
 */
z.config({ jitless: true });

export * from 'zod/mini';

/**
 * Classic's `schema.meta(metadata)` for a mini schema: a copy of the schema registered with the
 * metadata in the global registry, so it inherits the original's metadata (its `id` excepted) and
 * the original stays as it was. The OpenAPI documents read it (shared/api/openapi.ts).
 */
export function withMeta<T extends z.ZodMiniType>(schema: T, metadata: z.core.GlobalMeta): T {
  const copy = schema.clone();
  z.globalRegistry.add(copy, metadata);
  return copy;
}

/**
 * Classic's `ctx.addIssue({ code: 'custom', message, path })` inside a transform, which mini's
 * transform context lacks: a custom issue on the value being transformed, or at `path` below it.
 */
export function addIssue(ctx: z.core.ParsePayload, message: string, path?: PropertyKey[]): void {
  ctx.issues.push({ code: 'custom', message, input: ctx.value, ...(path ? { path } : {}) });
}
