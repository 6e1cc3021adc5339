import type { Command } from 'commander';
import { ApiClient, ApiError, describeFailure, getText, NetworkError } from '../api';
import { globals, readStdinSecret, withExamples } from '../context';
import { parsePositiveInt } from '../durations';
import { CliError, EXIT, UsageError } from '../errors';
import { printJson, printText } from '../output';
import { checkApiUrl } from '../profiles';
import { followSession } from './investigations';

/**
 * `sis smoke --url URL`: the check a tenant runs after `cdk deploy` (docs/deploy.md), and the test
 * suite runs against the local service. With an admin key (SIS_API_KEY) it walks the service end to
 * end as its clients do: health; both plugin manifests and every URL they publish (no key); a key
 * created, used and disabled; an investigation round trip synchronously and in the background (poll,
 * report, STIX, graph); the incidents list and the console's configuration. It cleans up what it
 * created (the key is disabled; the two sessions, of a documentation address at TLP amber+strict:
 * no third-party connector is cleared for it, and unlike red it stays visible in the API's graph,
 * which the graph check reads; they stay in the history as any investigation does). Exit 0 only when
 * every check passed.
 */

export interface SmokeCheck {
  name: string;
  ok: boolean;
  ms: number;
  detail: string;
}

/** A documentation address (RFC 5737): investigating it touches nothing real. */
const SMOKE_ENTITY = '192.0.2.1';

const SMOKE_SCOPES = [
  'investigations:read',
  'investigations:write',
  'incidents:read',
  'search:read',
  'graph:read',
] as const;

function failureText(error: unknown): string {
  if (error instanceof ApiError || error instanceof NetworkError) return describeFailure(error).message;
  return error instanceof Error ? error.message : String(error);
}

function expect(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

async function publicUrlAnswers(url: string): Promise<void> {
  const answer = await getText(url);
  expect(answer.status === 200, `${url} answered ${answer.status}`);
}

export async function runSmoke(
  apiUrl: string,
  adminKey: string | undefined,
  options: { timeoutSeconds: number; onCheck?: (check: SmokeCheck) => void },
): Promise<SmokeCheck[]> {
  const base = apiUrl.replace(/\/+$/, '');
  const admin = new ApiClient({ apiUrl: base, apiKey: adminKey });
  const checks: SmokeCheck[] = [];
  const deadline = () => Date.now() + options.timeoutSeconds * 1000;
  const check = async (name: string, work: () => Promise<string>): Promise<boolean> => {
    const started = Date.now();
    let result: SmokeCheck;
    try {
      result = { name, ok: true, ms: 0, detail: await work() };
    } catch (error) {
      result = { name, ok: false, ms: 0, detail: failureText(error) };
    }
    result.ms = Date.now() - started;
    checks.push(result);
    options.onCheck?.(result);
    return result.ok;
  };

  await check('health', async () => {
    const health = (await admin.call('getHealth')).body;
    expect(health.status === 'ok', `status is ${health.status}`);
    return `${health.service} ${health.version}, tenant ${health.tenant}`;
  });
  await check('plugin manifest (ai-plugin.json) and its URLs', async () => {
    const manifest = (await admin.call('getAiPluginManifest')).body as Record<string, unknown>;
    const api = manifest.api as { url?: string } | undefined;
    const urls = [api?.url, manifest.logo_url, manifest.legal_info_url].filter(
      (u): u is string => typeof u === 'string',
    );
    expect(urls.length === 3, 'the manifest lacks api.url, logo_url or legal_info_url');
    for (const url of urls) await publicUrlAnswers(url);
    return `${urls.length} URLs answer 200`;
  });
  await check('Security Copilot manifest and its URLs', async () => {
    const manifest = await getText(`${base}/plugin/security-copilot.yaml`);
    expect(manifest.status === 200, `answered ${manifest.status}`);
    expect(/^Descriptor:/m.test(manifest.text) && /^SkillGroups:/m.test(manifest.text), 'not a manifest');
    const urls = [...new Set(manifest.text.match(/https?:\/\/[^\s"']+/g) ?? [])];
    expect(urls.length > 0, 'publishes no URL');
    for (const url of urls) await publicUrlAnswers(url);
    return `${urls.length} URLs answer 200`;
  });

  let keyId: string | undefined;
  let analyst: ApiClient | undefined;
  const keyCreated = await check('create an API key (admin)', async () => {
    const created = (
      await admin.call('createApiKey', {
        body: {
          name: `sis smoke ${new Date().toISOString()}`,
          description: 'Created by sis smoke; disabled when it ends',
          scopes: [...SMOKE_SCOPES],
          expires_in_days: 1,
        },
      })
    ).body;
    keyId = created.key_id;
    analyst = new ApiClient({ apiUrl: base, apiKey: created.api_key });
    return `${created.key_prefix} (${created.key_id})`;
  });

  if (keyCreated && analyst) {
    const client = analyst;
    let sessionId: string | undefined;
    let sessionUrl: string | undefined;
    await check('investigate synchronously', async () => {
      const started = await client.call('startInvestigation', {
        body: { entity: SMOKE_ENTITY, tlp: 'amber+strict' },
        timeoutMs: options.timeoutSeconds * 1000,
      });
      const id = started.body.session_id;
      if (started.status === 202) await followSession(client, id, deadline());
      const report = (await client.call('getInvestigationReport', { path: { session_id: id } })).body;
      expect(report.status === 'completed' && report.report, `the session ended ${report.status}`);
      return `${id}: ${report.report.verdict}, risk ${report.report.risk_score}/100`;
    });
    const background = await check('investigate in the background and poll', async () => {
      const started = await client.call('startInvestigation', {
        body: { entity: SMOKE_ENTITY, tlp: 'amber+strict', background: true },
      });
      expect(started.status === 202, `answered ${started.status}, not 202`);
      sessionId = started.body.session_id;
      sessionUrl = (started.body as { session_url?: string }).session_url;
      const history = await followSession(client, sessionId, deadline());
      expect(history.session.status === 'completed', `the session ended ${history.session.status}`);
      return `${sessionId}: ${history.events.length} events, ${history.tool_calls.length} tool calls`;
    });
    if (background && sessionId) {
      const id = sessionId;
      await check('report and its console page', async () => {
        const report = (await client.call('getInvestigationReport', { path: { session_id: id } })).body;
        expect(report.report?.findings.length, 'the report has no findings');
        await publicUrlAnswers(sessionUrl ?? `${base}/sessions/${id}`);
        return `${report.report.findings.length} findings, verdict ${report.report.verdict}`;
      });
      await check('STIX bundle', async () => {
        const bundle = (await client.call('getInvestigationStix', { path: { session_id: id } })).body as {
          type?: string;
          objects?: unknown[];
        };
        expect(bundle.type === 'bundle' && bundle.objects?.length, 'not a STIX bundle');
        return `${bundle.objects.length} objects`;
      });
    }
    await check('knowledge graph', async () => {
      const graph = (
        await client.call('queryKnowledgeGraph', { path: { value: SMOKE_ENTITY }, query: { type: 'ip' } })
      ).body;
      return `${graph.neighbors.length} neighbours`;
    });
    await check('search', async () => {
      const found = (await client.call('searchInvestigations', { query: { q: SMOKE_ENTITY } })).body;
      expect(
        !sessionId || found.results.some((r) => r.session_id === sessionId),
        'the background session is not found by its entity',
      );
      return `${found.results.length} sessions`;
    });
    await check('incidents list', async () => {
      const incidents = (await client.call('listIncidents', { query: { limit: 5 } })).body;
      return `${incidents.incidents.length} incidents on the first page`;
    });
  }

  await check('console configuration', async () => {
    const config = await getText(`${base}/console/config.json`);
    expect(config.status === 200, `answered ${config.status}`);
    const parsed = JSON.parse(config.text) as { authorization_endpoint?: string; client_id?: string };
    expect(parsed.authorization_endpoint && parsed.client_id, 'no sign-in settings');
    return `sign-in at ${new URL(parsed.authorization_endpoint).origin}`;
  });

  if (keyId) {
    const id = keyId;
    await check('clean up: disable the key, which is then refused', async () => {
      await admin.call('disableApiKey', { path: { key_id: id } });
      try {
        await analyst?.call('listIncidents', { query: { limit: 1 } });
      } catch (error) {
        expect(error instanceof ApiError && error.status === 401, `refused with ${failureText(error)}`);
        return `key ${id} disabled`;
      }
      throw new Error('the disabled key was still accepted');
    });
  }
  return checks;
}

export function addSmokeCommand(program: Command): void {
  withExamples(
    program
      .command('smoke')
      .description(
        'Check a deployed (or local) service end to end after a deployment: health, manifests and their URLs, a key created, used and disabled, an investigation synchronously and in the background (report, STIX, graph, search), incidents, console configuration. Needs an admin key (SIS_API_KEY or --api-key-stdin). Exit 0 only when every check passes.',
      )
      .requiredOption('--url <url>', 'base URL of the service (the stack output ApiUrl)')
      .option(
        '--timeout <seconds>',
        'how long an investigation may take',
        (v) => parsePositiveInt(v, '--timeout'),
        300,
      ),
    [
      'SIS_API_KEY=$ADMIN_KEY sis smoke --url https://abc123.execute-api.eu-west-1.amazonaws.com/prod',
      'sis smoke --url http://127.0.0.1:3000 --json',
    ],
  ).action(async (flags: { url: string; timeout: number }, command: Command) => {
    const { json, apiKeyStdin } = globals(command);
    const url = (() => {
      try {
        return checkApiUrl(flags.url);
      } catch (error) {
        throw new UsageError(error instanceof Error ? error.message : String(error));
      }
    })();
    const adminKey = apiKeyStdin ? await readStdinSecret() : process.env.SIS_API_KEY;
    if (!adminKey)
      throw new CliError('sis smoke needs an admin key: set SIS_API_KEY or pass --api-key-stdin.', EXIT.auth);
    const checks = await runSmoke(url, adminKey, {
      timeoutSeconds: flags.timeout,
      ...(json
        ? {}
        : {
            onCheck: (c: SmokeCheck) =>
              printText(
                `${c.ok ? 'ok  ' : 'FAIL'}  ${c.name} (${c.ms} ms): ${c.detail.replace(/\s+/g, ' ')}`,
              ),
          }),
    });
    const failed = checks.filter((c) => !c.ok).length;
    if (json) printJson({ url, ok: failed === 0, checks });
    else
      printText(
        failed === 0 ? `All ${checks.length} checks passed.` : `${failed} of ${checks.length} checks failed.`,
      );
    process.exitCode = failed === 0 ? EXIT.ok : EXIT.error;
  });
}
