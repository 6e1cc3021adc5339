import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { DEFAULT_TLP, TLP_LEVELS } from '../../../shared/domain/core/tlp';
import { PERSONA_NAMES } from '../../../shared/domain/core/vocabulary';
import { api } from '../api';
import { sessionHref } from '../format';
import type { Entity, Started } from '../types';
import { useAction } from '../use-action';
import { ErrorNote } from './common';
import { SelectField } from './form/select-field';
import { TextField } from './form/text-field';

/** Starts a background investigation owned by the signed-in person and opens its session page. */
export async function startInvestigation(
  entity: Entity | string,
  persona?: string,
  tlp?: string,
): Promise<Started> {
  return api<Started>('POST', '/investigations', {
    body: { entity, ...(persona ? { persona } : {}), ...(tlp ? { tlp } : {}), background: true },
  });
}

/** The entity types the form offers, in this order; the empty choice lets the service infer it. */
const TYPE_CHOICES: Record<string, string> = {
  '': 'Infer from the value',
  ip: 'IP address',
  user: 'User',
  host: 'Host',
  domain: 'Domain',
};

/** The form on /sessions: entity (with an optional type), persona; always runs in the background. */
export function StartInvestigationForm() {
  const { route } = useLocation();
  const [value, setValue] = useState('');
  const [type, setType] = useState('');
  const [persona, setPersona] = useState<string>(PERSONA_NAMES[0]);
  const [tlp, setTlp] = useState<string>(DEFAULT_TLP);
  const starting = useAction();

  const submit = (event: Event) => {
    event.preventDefault();
    // Leaving: the session page opens once the investigation is started.
    void starting.run(
      async () => {
        const entity = type ? { type: type as Entity['type'], value: value.trim() } : value.trim();
        const started = await startInvestigation(entity, persona, tlp);
        route(sessionHref(started.session_id));
      },
      { leaving: true },
    );
  };

  return (
    <form class="panel" onSubmit={submit} aria-labelledby="start-heading">
      <h2 id="start-heading">Start an investigation</h2>
      <p class="muted">It runs in the background; its page follows it live.</p>
      <div class="fields">
        <TextField
          label="Entity"
          name="entity"
          required
          maxLength={256}
          value={value}
          placeholder="203.0.113.7, alice@corp.example, paypa1-login.com"
          onValue={setValue}
        />
        <SelectField
          label="Type"
          name="type"
          value={type}
          onValue={setType}
          options={Object.keys(TYPE_CHOICES)}
          optionLabel={(choice) => TYPE_CHOICES[choice]}
        />
        <SelectField
          label="Persona"
          name="persona"
          value={persona}
          onValue={setPersona}
          options={PERSONA_NAMES}
        />
        <SelectField
          label="TLP"
          name="tlp"
          value={tlp}
          onValue={setTlp}
          options={TLP_LEVELS}
          optionLabel={(level) => <>TLP:{level.toUpperCase()}</>}
        />
      </div>
      <ErrorNote error={starting.error} />
      <button type="submit" disabled={starting.busy}>
        {starting.busy ? 'Starting…' : 'Investigate'}
      </button>
    </form>
  );
}
