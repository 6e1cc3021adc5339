import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Target } from './api';
import { CliError, EXIT, UsageError } from './errors';

/**
 * Named profiles (API URL + key) in the user's config directory, readable by the user only (0600 in
 * a 0700 directory). SIS_CONFIG_DIR overrides the location.
 */

export interface Profile {
  api_url: string;
  api_key?: string;
}

interface ConfigFile {
  profiles: Record<string, Profile>;
}

export const DEFAULT_PROFILE = 'default';
const PROFILE_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SIS_CONFIG_DIR) return env.SIS_CONFIG_DIR;
  if (process.platform === 'win32' && env.APPDATA) return join(env.APPDATA, 'sis');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'sis');
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'sis');
}

export function configFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), 'config.json');
}

export function checkProfileName(name: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw new UsageError(`Invalid profile name "${name}": use letters, digits, ".", "_" or "-".`);
  }
  return name;
}

function readConfig(env: NodeJS.ProcessEnv): ConfigFile {
  const file = configFile(env);
  if (!existsSync(file)) return { profiles: {} };
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<ConfigFile>;
    return { profiles: parsed.profiles && typeof parsed.profiles === 'object' ? parsed.profiles : {} };
  } catch {
    throw new CliError(`${file} is not valid JSON; fix it or run \`sis configure\` again after removing it.`);
  }
}

export function readProfile(name: string, env: NodeJS.ProcessEnv = process.env): Profile | undefined {
  return readConfig(env).profiles[name];
}

export function listProfiles(env: NodeJS.ProcessEnv = process.env): string[] {
  return Object.keys(readConfig(env).profiles).sort();
}

export function saveProfile(name: string, profile: Profile, env: NodeJS.ProcessEnv = process.env): string {
  const config = readConfig(env);
  config.profiles[checkProfileName(name)] = profile;
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // mkdir's mode acts only on a directory it creates: an existing, more open one is tightened.
  chmodSync(dir, 0o700);
  const file = configFile(env);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  // rename keeps the 0600 of the new file even when an older config.json was more open
  renameSync(temporary, file);
  chmodSync(file, 0o600);
  return file;
}

export function checkApiUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(
      `Invalid API URL "${value}": give the service's base URL, e.g. https://sis.example.com.`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`Invalid API URL "${value}": it must start with https:// or http://.`);
  }
  return value.replace(/\/+$/, '');
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * A warning for a plain-http URL to another machine: the API key would cross the network in clear.
 * Loopback (the local runtime) is fine.
 */
export function insecureUrlWarning(apiUrl: string): string | undefined {
  const url = new URL(apiUrl);
  if (url.protocol !== 'http:' || LOOPBACK.has(url.hostname)) return undefined;
  return `warning: ${url.origin} is plain http: the API key and the answers cross the network unencrypted. Use https:// unless this is a trusted test network.`;
}

export interface TargetChoice {
  /** --profile, when given: the profile wins over SIS_API_URL / SIS_API_KEY. */
  profile?: string;
  /** A key read from standard input (--api-key-stdin); wins over every other source. */
  stdinKey?: string;
}

/**
 * Where to send requests and with which key: an explicit --profile, else SIS_API_URL / SIS_API_KEY,
 * else the profile named by SIS_PROFILE or "default"; a key from --api-key-stdin overrides the key.
 */
export function resolveTarget(choice: TargetChoice, env: NodeJS.ProcessEnv = process.env): Target {
  let apiUrl: string | undefined;
  let apiKey: string | undefined;
  if (choice.profile) {
    const name = checkProfileName(choice.profile);
    const profile = readProfile(name, env);
    if (!profile) {
      throw new UsageError(
        `No profile "${name}" in ${configFile(env)}; create it with \`sis configure --profile ${name}\`.`,
      );
    }
    apiUrl = profile.api_url;
    apiKey = profile.api_key;
  } else {
    const fallback = readProfile(checkProfileName(env.SIS_PROFILE || DEFAULT_PROFILE), env);
    apiUrl = env.SIS_API_URL || fallback?.api_url;
    apiKey = env.SIS_API_KEY || fallback?.api_key;
  }
  if (choice.stdinKey) apiKey = choice.stdinKey;
  if (!apiUrl) {
    throw new UsageError('No API URL: set SIS_API_URL or save a profile with `sis configure`.');
  }
  return { apiUrl: checkApiUrl(apiUrl), apiKey };
}

export const missingKey = () =>
  new CliError(
    'No API key: set SIS_API_KEY, pass --api-key-stdin, or save a profile with `sis configure`.',
    EXIT.auth,
  );
