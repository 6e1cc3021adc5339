/**
 * Who started an investigation: the key's or person's name, with what it is. Without a recorded name
 * a key or person shows the start of its ID, with the whole ID in the tooltip.
 */
export function Starter({
  kind,
  id,
  name,
  via,
}: {
  kind: 'key' | 'user';
  id?: string | undefined;
  name: string | null;
  /** The endpoint a key started it through when not the REST API. */
  via?: 'mcp' | undefined;
}) {
  const what = kind === 'user' ? 'person' : 'API key';
  const channel = via === 'mcp' ? <span class="muted"> (MCP)</span> : null;
  if (name) {
    return (
      <span title={id ? `${what} ${id}` : what}>
        {name} <span class="muted">({what})</span>
        {channel}
      </span>
    );
  }
  if (!id)
    return (
      <span class="muted">
        a {what} (name not recorded){channel}
      </span>
    );
  return (
    <span title={id}>
      {what} <code>{id.slice(0, 8)}</code>
      {channel}
    </span>
  );
}
