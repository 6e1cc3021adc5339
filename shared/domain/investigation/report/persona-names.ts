import { ValidationError } from '../../core/errors';
import { DEFAULT_PERSONA, PERSONA_NAMES, type PersonaName } from '../../core/vocabulary';

/**
 * The spellings accepted for each persona, and resolving a requested persona to its name. Apart from
 * the personas' wording (personas.ts, persona-endings.ts), so validating a start request or ending a
 * run carries none of the summaries and recommendations.
 */
export const PERSONA_ALIASES: Readonly<Record<PersonaName, readonly string[]>> = {
  'SOC Analyst': ['soc analyst', 'soc', 'analyst', 'security analyst', 'socanalyst', 'soc_analyst'],
  CISO: [
    'ciso',
    'executive',
    'exec',
    'chief information security officer',
    'security executive',
    'management',
  ],
  'Threat Hunter': [
    'threat hunter',
    'hunter',
    'threat hunting',
    'hunt',
    'th',
    'threathunter',
    'threat_hunter',
  ],
};

const canonical = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');

// Built on the first lookup, so importing this module costs nothing.
let byAlias: Map<string, PersonaName> | undefined;
const personaByAlias = () => {
  byAlias ??= new Map(
    PERSONA_NAMES.flatMap((name) =>
      [name, ...PERSONA_ALIASES[name]].map((alias) => [canonical(alias), name] as const),
    ),
  );
  return byAlias;
};

/** `SOC Analyst (default), CISO, Threat Hunter` */
export function personaChoices(): string {
  return PERSONA_NAMES.map((name) => (name === DEFAULT_PERSONA ? `${name} (default)` : name)).join(', ');
}

/**
 * The name of the persona requested (case, spaces, `-` and `_` ignored; aliases such as `soc`,
 * `ciso`, `hunter` accepted). Missing or blank → SOC Analyst. Unknown → ValidationError at `persona`
 * listing the valid names.
 */
export function personaNamed(name?: string | null): PersonaName {
  if (name === undefined || name === null || name.trim() === '') return DEFAULT_PERSONA;
  const persona = personaByAlias().get(canonical(name));
  if (persona) return persona;
  const message = `unknown persona "${name.slice(0, 64)}"; valid personas: ${personaChoices()}`;
  throw new ValidationError(`Invalid persona: ${message}.`, [{ path: 'persona', message }]);
}
