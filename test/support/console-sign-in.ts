import { createHash, randomBytes } from 'node:crypto';
import { request } from 'undici';

/**
 * Signs in through the local OpenID Connect issuer the way a browser does: authorization code + PKCE,
 * following every redirect by hand and submitting the login form it serves. Returns the ID token
 * the console sends as `Authorization: Bearer`.
 */
export interface ConsoleSignInResult {
  idToken: string;
  /** The form page the issuer served (tests assert its labelled fields). */
  loginPage: string;
}

export async function signInToConsole(
  baseUrl: string,
  credentials: { username: string; password: string },
): Promise<ConsoleSignInResult> {
  const config = (await (await request(`${baseUrl}/console/config.json`)).body.json()) as {
    authorization_endpoint: string;
    token_endpoint: string;
    client_id: string;
    redirect_uri: string;
    scopes: string;
  };
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const state = randomBytes(8).toString('hex');
  const cookies = new Map<string, string>();
  const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const remember = (setCookie: string | string[] | undefined) => {
    for (const line of [setCookie ?? []].flat()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      if (at > 0) cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  };
  const go = async (url: string, init: { method?: 'GET' | 'POST'; form?: URLSearchParams } = {}) => {
    const response = await request(new URL(url, baseUrl), {
      method: init.method ?? 'GET',
      headers: {
        cookie: cookieHeader(),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(init.form ? { body: init.form.toString() } : {}),
    });
    remember(response.headers['set-cookie']);
    const text = await response.body.text();
    return { status: response.statusCode, location: response.headers.location as string | undefined, text };
  };

  const authorize = new URL(config.authorization_endpoint);
  authorize.search = new URLSearchParams({
    client_id: config.client_id,
    redirect_uri: config.redirect_uri,
    response_type: 'code',
    scope: config.scopes,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
  }).toString();
  let step = await go(authorize.href);
  let loginPage = '';
  for (let hops = 0; hops < 10; hops++) {
    if (step.location?.startsWith(config.redirect_uri)) break;
    if (step.location) {
      step = await go(step.location);
      continue;
    }
    const action = /<form[^>]*action="([^"]+)"/.exec(step.text)?.[1];
    if (step.status !== 200 || !action) throw new Error(`sign-in stopped at ${step.status}: ${step.text}`);
    loginPage = step.text;
    step = await go(action.replace(/&amp;/g, '&'), {
      method: 'POST',
      form: new URLSearchParams(credentials),
    });
    if (step.status === 401) throw new Error('sign-in refused: wrong username or password');
  }
  const callback = new URL(step.location ?? '', baseUrl);
  const code = callback.searchParams.get('code');
  if (!code || callback.searchParams.get('state') !== state) throw new Error(`no code in ${callback.href}`);
  const token = await request(config.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: config.redirect_uri,
      client_id: config.client_id,
      code_verifier: verifier,
    }).toString(),
  });
  const tokens = (await token.body.json()) as { id_token?: string };
  if (!tokens.id_token)
    throw new Error(`token endpoint answered ${token.statusCode}: ${JSON.stringify(tokens)}`);
  return { idToken: tokens.id_token, loginPage };
}
