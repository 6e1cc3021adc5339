import { MAX_RETENTION_DAYS } from '../domain/retention/retention';
import * as z from '../zod';

/**
 * The building blocks of the runtime configuration's declaration (shared/config.ts): a variable is
 * declared with a function building the schema of its value, and a default or none.
 */
export interface Declared<S extends z.ZodMiniType, HasDefault extends boolean> {
  readonly schema: () => S;
  readonly hasDefault: HasDefault;
  /** The value of an unset variable with a default; not validated, as zod's `_default`. */
  readonly fallback?: z.output<S>;
}

/** A variable that may be unset (then undefined). */
export const optional = <S extends z.ZodMiniType>(schema: () => S): Declared<S, false> => ({
  schema,
  hasDefault: false,
});

/** A variable that reads as `fallback` when unset. */
export const withDefault = <S extends z.ZodMiniType>(
  fallback: z.output<S>,
  schema: () => S,
): Declared<S, true> => ({
  schema,
  hasDefault: true,
  fallback,
});

/*
 * Building blocks shared by several variables: one instance, built on first use, serves every
 * variable of the same shape (a schema is immutable, and messages name the variable from its key,
 * not from the instance).
 */
export const shared = <S extends z.ZodMiniType>(build: () => S): (() => S) => {
  let built: S | undefined;
  return () => {
    built ??= build();
    return built;
  };
};
/*
 * A flag, "1"/"true" or "0"/"false", read as a boolean: one transform that reports any other value
 * with the issue an enum of the four gives (so the same message). It replaces a pipe from that enum
 * into a transform, whose three schema kinds cost a cold start ~2 ms of CPU to build and first run.
 */
export const FLAG_VALUES = ['0', '1', 'true', 'false'];
export const booleanFlag = shared(() =>
  z.transform((value: unknown, ctx): boolean => {
    if (value === '1' || value === 'true') return true;
    if (value === '0' || value === 'false') return false;
    ctx.issues.push({ code: 'invalid_value', values: FLAG_VALUES, input: value });
    return z.NEVER;
  }),
);
export const tableName = shared(() => z.string().check(z.minLength(3)));
export const optionalUrl = optional(shared(() => z.url()));
export const optionalText = optional(shared(() => z.string()));
export const optionalNonEmpty = optional(shared(() => z.string().check(z.minLength(1))));
export const siemCredentials = optional(shared(() => z.string().check(z.maxLength(8192))));
export const consolePassword = optional(shared(() => z.string().check(z.minLength(8), z.maxLength(128))));
export const cursorSecret = optional(shared(() => z.string().check(z.minLength(32), z.maxLength(512))));
export const dailyQuota = optional(
  shared(() => z.coerce.number().check(z.int(), z.gte(0), z.lte(100_000_000))),
);
export const retentionDays = shared(() =>
  z.coerce.number().check(z.int(), z.gte(0), z.lte(MAX_RETENTION_DAYS)),
);
