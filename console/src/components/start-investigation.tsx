import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { DEFAULT_TLP, TLP_LEVELS } from '../../../shared/domain/core/tlp';
import { PERSONA_NAMES } from '../../../shared/domain/core/vocabulary';
import { api } from '../api';
import { sessionHref } from '../format';
import type { Entity, Started } from '../types';
import { useAction } from '../use-action';
import { ErrorNote } from './common';
import { TextField } from './text-field';

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
        <label>
          Type
          <select name="type" value={type} onChange={(e) => setType(e.currentTarget.value)}>
            <option value="">Infer from the value</option>
            <option value="ip">IP address</option>
            <option value="user">User</option>
            <option value="host">Host</option>
            <option value="domain">Domain</option>
          </select>
        </label>
        <label>
          Persona
          <select name="persona" value={persona} onChange={(e) => setPersona(e.currentTarget.value)}>
            {PERSONA_NAMES.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label>
          TLP
          <select name="tlp" value={tlp} onChange={(e) => setTlp(e.currentTarget.value)}>
            {TLP_LEVELS.map((level) => (
              <option key={level} value={level}>
                TLP:{level.toUpperCase()}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorNote error={starting.error} />
      <button type="submit" disabled={starting.busy}>
        {starting.busy ? 'Starting…' : 'Investigate'}
      </button>
    </form>
  );
}
