import { ToolSkippedError } from '../errors';
import {
  CONNECTOR_NAMES,
  CONNECTORS,
  type ConnectorName,
  intelToolName,
  refusalReason,
} from '../intel/connectors';
import { DEFAULT_TLP } from '../tlp';
import type { Finding, Tool, ToolName } from './types';

/**
 * One tool per intelligence connector (`intel_<name>`), so each source's answer, skip, failure or
 * timeout is its own visible tool call. The gate (entity type, TLP, private or internal indicator)
 * is decided here, before the connector runtime is even asked; the runtime (ctx.intel) owns the
 * cache, quota, circuit breaker and HTTP; the declaration's pure mapper turns the answer into findings.
 */
function intelTool(name: ConnectorName): Tool {
  const connector = CONNECTORS[name];
  const toolName = intelToolName(name) as ToolName;
  return {
    name: toolName,
    description: `${connector.title}: what the source knows about the indicator (docs/intel.md)`,
    appliesTo: (entity) => connector.entityTypes.includes(entity.type),
    async run(entity, ctx) {
      const refusal = refusalReason(connector, entity, ctx.tlp ?? DEFAULT_TLP, ctx.internalSuffixes ?? []);
      if (refusal) throw new ToolSkippedError(refusal);
      if (!ctx.intel?.enabled(name)) throw new ToolSkippedError(`${connector.title} is not configured.`);
      const lookup = await ctx.intel.lookup(name, entity, {
        signal: ctx.signal,
        refresh: ctx.refreshIntel === true,
      });
      const mapped = connector.map(entity, lookup.answer);
      const findings: Finding[] = mapped.findings.map((finding) => ({
        ...finding,
        severity: 'info',
        source_tool: toolName,
      }));
      return {
        facts: { source: name, ...mapped.facts, http_status: lookup.answer.status },
        findings,
        related: [],
        ...(lookup.cached ? { cache: { age_seconds: lookup.age_seconds } } : {}),
      };
    },
  };
}

export const INTEL_TOOLS: readonly Tool[] = CONNECTOR_NAMES.map(intelTool);
