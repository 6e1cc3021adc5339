import { useState } from 'preact/hooks';
import { ApiError, apiBlob } from '../../api';
import { ErrorNote } from '../../components/common';

/** The STIX 2.1 export needs the sign-in token, so it is fetched and handed over as a file. */
export function StixLink({ sessionId }: { sessionId: string }) {
  const [state, setState] = useState<'idle' | 'busy' | 'missing'>('idle');
  const [error, setError] = useState<unknown>(null);
  const download = async () => {
    setState('busy');
    setError(null);
    try {
      const blob = await apiBlob(`/sessions/${encodeURIComponent(sessionId)}/stix`);
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `${sessionId}.stix.json`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setState('idle');
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 404) setState('missing');
      else {
        setError(caught);
        setState('idle');
      }
    }
  };
  if (state === 'missing') return <p class="muted">No STIX export is available for this investigation.</p>;
  return (
    <>
      <button type="button" class="secondary" onClick={download} disabled={state === 'busy'}>
        Download STIX 2.1 bundle
      </button>
      <ErrorNote error={error} />
    </>
  );
}
