import { type Entity, entityLabel, parseUser, unicodeName } from '../../core/entity';
import type { PersonaName } from '../../core/vocabulary';
import { personaNamed } from './persona-names';

/**
 * What each persona says when a run ends without a report (failed, timed out, canceled), apart from
 * the rest of its wording (personas.ts): the failure write-back and the cancel route write this
 * message and nothing else a persona says, so they carry neither the summaries nor the entity
 * parsers those read.
 */

type Outcome = 'failed' | 'canceled';

/** How the CISO persona names an entity, in words without jargon (the Unicode form of a domain). */
export function plainSubject(entity: Entity): string {
  switch (entity.type) {
    case 'ip':
      return `The network address ${entity.value}`;
    case 'domain':
      return `The website address ${unicodeName(entity.value)}`;
    case 'user':
      return `The user account ${parseUser(entity.value).name}`;
    case 'host':
      return `The computer ${entity.value}`;
  }
}

const UNFINISHED: Record<PersonaName, (entity: Entity, outcome: Outcome, reason?: string) => string> = {
  'SOC Analyst': (entity, outcome, reason) =>
    outcome === 'canceled'
      ? `Investigation of ${entityLabel(entity)} was canceled before a verdict; tool results recorded so far are kept.`
      : `Investigation of ${entityLabel(entity)} failed before a verdict${reason ? `: ${reason}` : '.'}${
          reason && !reason.endsWith('.') ? '.' : ''
        } Re-run it; tool results recorded so far are kept.`,
  CISO: (entity, outcome) =>
    outcome === 'canceled'
      ? `The assessment of ${plainSubject(entity).replace(/^The/, 'the')} was stopped before it finished; no conclusion was reached.`
      : `The assessment of ${plainSubject(entity).replace(/^The/, 'the')} could not be completed; no conclusion was reached. The security team can run it again.`,
  'Threat Hunter': (entity, outcome, reason) =>
    `Hunt on ${entityLabel(entity)} ${outcome === 'canceled' ? 'was canceled' : `failed${reason ? ` (${reason})` : ''}`}; partial tool results remain in the session history.`,
};

/**
 * The assistant's closing message when the run ends without a report, in the persona's voice
 * (a persona, or a name or alias; missing → SOC Analyst). The entity is the session's subject,
 * normalised before it was stored.
 */
export function unfinishedMessage(
  persona: { name: PersonaName } | string | null | undefined,
  entity: Entity,
  outcome: Outcome,
  reason?: string,
): string {
  const name = typeof persona === 'object' && persona !== null ? persona.name : personaNamed(persona);
  return UNFINISHED[name](entity, outcome, reason);
}
