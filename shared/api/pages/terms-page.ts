/**
 * The terms page the plugin manifests' legal URL points to when the operator has not configured its
 * own (SIS_LEGAL_URL / the `legalUrl` deployment setting). Plain HTML with no script, style or
 * external resource, so the security headers every answer carries (a CSP without `'self'`) leave it
 * intact. Values come from the validated configuration and are escaped anyway.
 */
export interface TermsPageInput {
  serviceName: string;
  contactEmail: string;
  /** The operator's own terms, linked from this page when configured. */
  operatorLegalUrl?: string | undefined;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

export function renderTermsPage(input: TermsPageInput): string {
  const name = escapeHtml(input.serviceName);
  const email = escapeHtml(input.contactEmail);
  const operatorTerms = input.operatorLegalUrl
    ? `<p>The operator's own terms apply and take precedence: <a href="${escapeHtml(input.operatorLegalUrl)}">${escapeHtml(input.operatorLegalUrl)}</a>.</p>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${name}: terms of use</title>
</head>
<body>
<main>
<h1>${name}: terms of use</h1>
<p>This deployment of the Security Investigation Service is run by the organisation that operates it
for its own security operations. It is not a public service.</p>
${operatorTerms}
<h2>Who may use it</h2>
<p>Only holders of an API key issued by the operator's administrators, within the scopes of that key.
Keys are personal to one integration; do not share them.</p>
<h2>Data</h2>
<ul>
<li>Investigations, incidents and the knowledge graph stay in the operator's own cloud account.</li>
<li>An investigation is visible only to the API key that started it (and its rotations).</li>
<li>Entity values may be sent to the threat-intelligence providers the operator has enabled.</li>
<li>Results are produced automatically and may be wrong; a person decides what to do with them.</li>
</ul>
<h2>Contact</h2>
<p>Questions about this deployment: <a href="mailto:${email}">${email}</a>.</p>
</main>
</body>
</html>
`;
}
