import type { Entity } from '../../core/entity';
import { ToolSkippedError } from '../../core/errors';
import { DEFAULT_TLP, stricterTlp, type Tlp, tlpAllows } from '../../core/tlp';
import type { Finding, Tool, ToolName } from '../../core/vocabulary';
import {
  CONNECTOR_NAMES,
  CONNECTORS,
  type ConnectorDeclaration,
  type ConnectorName,
  intelToolName,
} from '../../intel/connectors';
import { MAPPERS } from '../../intel/mappers';
import { DO_NOT_SHARE_SKIP } from '../../tenant-knowledge/do-not-share';
import { classifyIp } from './ip-ranges';
import { declaredTool } from './tool-catalogue';

/**
 * One tool per intelligence connector (`intel_<name>`), so each source's answer, skip, failure or
 * timeout is its own visible tool call. The gate (entity type, TLP, private or internal indicator)
 * is decided here, before the connector runtime is even asked; the runtime (ctx.intel) owns the
 * cache, quota, circuit breaker and HTTP; the connector's pure mapper (intel/mappers.ts) turns the
 * answer into findings.
 */
function intelTool(name: ConnectorName): Tool {
  const connector = CONNECTORS[name];
  const toolName = intelToolName(name) as ToolName;
  return {
    ...declaredTool(toolName),
    async run(entity, ctx) {
      const refusal = refusalReason(connector, entity, ctx.tlp ?? DEFAULT_TLP, ctx.internalSuffixes ?? []);
      if (refusal) throw new ToolSkippedError(refusal);
      if (!ctx.intel?.enabled(name)) throw new ToolSkippedError(`${connector.title} is not configured.`);
      if (await ctx.intel.doNotShare?.(entity)) throw new ToolSkippedError(DO_NOT_SHARE_SKIP);
      // The entity's own level: an earlier TLP:RED investigation of it keeps it from third parties.
      const entityTlp = await ctx.intel.entityTlp?.(entity);
      const level = stricterTlp(ctx.tlp ?? DEFAULT_TLP, entityTlp);
      if (!tlpAllows(level, connector.maxTlp)) {
        throw new ToolSkippedError(
          `The knowledge graph marks this ${entity.type} TLP:${level.toUpperCase()} (an earlier investigation), above this source's maximum (TLP:${connector.maxTlp.toUpperCase()}); nothing was sent.`,
        );
      }
      const lookup = await ctx.intel.lookup(name, entity, {
        signal: ctx.signal,
        refresh: ctx.refreshIntel === true,
      });
      const mapped = MAPPERS[name](entity, lookup.answer);
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

/** Names that never leave the tenant: reserved by RFC 2606/6761/8375 or conventionally internal. */
const RESERVED_SUFFIXES = [
  'example',
  'example.com',
  'example.net',
  'example.org',
  'test',
  'invalid',
  'localhost',
  'local',
  'internal',
  'intranet',
  'lan',
  'home.arpa',
  'corp',
];

function underSuffix(value: string, suffix: string): boolean {
  const s = suffix.replace(/^[.@]+/, '').toLowerCase();
  return s !== '' && (value === s || value.endsWith(`.${s}`) || value.endsWith(`@${s}`));
}

/**
 * Why this entity must not go to this connector, or null when it may. Checked before any cache,
 * quota or network work, so a refused lookup costs nothing and leaves nothing behind.
 */
export function refusalReason(
  connector: ConnectorDeclaration,
  entity: Entity,
  tlp: Tlp,
  internalSuffixes: readonly string[],
): string | null {
  if (!connector.entityTypes.includes(entity.type)) {
    return `${connector.title} does not look up a ${entity.type}.`;
  }
  if (!tlpAllows(tlp, connector.maxTlp)) {
    return `TLP:${tlp.toUpperCase()} is above this source's maximum (TLP:${connector.maxTlp.toUpperCase()}); nothing was sent.`;
  }
  if (connector.tenantOwned) return null;
  if (entity.type === 'ip') {
    const { range } = classifyIp(entity.value);
    if (range !== 'public') {
      return `A ${range.replaceAll('_', ' ')} address is never sent to a third-party source.`;
    }
    return null;
  }
  const value = entity.value.toLowerCase();
  if (entity.type === 'host' || entity.type === 'user') {
    return `A ${entity.type} name is never sent to a third-party source.`;
  }
  if (RESERVED_SUFFIXES.some((suffix) => underSuffix(value, suffix))) {
    return 'A reserved or internal-only name is never sent to a third-party source.';
  }
  if (internalSuffixes.some((suffix) => underSuffix(value, suffix))) {
    return 'The deployment names this as internal (SIS_INTERNAL_SUFFIXES); it is never sent to a third-party source.';
  }
  return null;
}
