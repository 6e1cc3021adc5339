import type { z } from 'zod';
import type { Config } from '../../shared/config';

/** The shape of one setting's declaration (infra/settings/declaration.ts). */
export interface SettingDeclaration<S extends z.ZodType> {
  readonly schema: S;
  readonly docs: {
    /** The Default column: what an unset setting means. */
    readonly default: string;
    readonly meaning: string;
  };
  /** The function variable(s) the setting becomes; absent: it shapes resources only. */
  readonly variable?: SettingVariable;
}

/**
 * Which functions get the variable. `every function` variables are copied as they are by the stack
 * (infra/tenant/environment.ts); the others are set by the part of the stack named.
 */
export type VariableRecipients =
  | 'every function'
  | 'every function, else the custom domain or stage URL'
  | 'key administration functions'
  | 'feed functions'
  | 'intel planning and lookup functions'
  | 'intel lookup step and connectors route'
  | 'analyst steps and investigation starters';

/** `<NAME>` stands for each connector's or feed's name (SIS_INTEL_<NAME>_ENABLED). */
type VariableName =
  | (keyof Config & string)
  | 'SIS_INTEL_<NAME>_ENABLED'
  | `SIS_FEED_<NAME>_${'ENABLED' | 'URL'}`;

export interface SettingVariable {
  readonly name: VariableName;
  readonly on: VariableRecipients;
  /** Another setting the stack falls back on (named with this one in synth-time problems). */
  readonly alsoFrom?: string;
}

export const declare = <S extends z.ZodType>(declaration: SettingDeclaration<S>) => declaration;
