import { normaliseAttack } from '../core/attack';
import { type Entity, entityKey } from '../core/entity';
import { normaliseEntity } from '../core/entity-normalisation';
import { DomainError, ToolSkippedError, ValidationError } from '../core/errors';
import {
  type Attributes,
  DEFAULT_DATA_LIMITS,
  FINDING_CATEGORIES,
  type Finding,
  type InvestigationEvent,
  type RelatedEntity,
  type Tool,
  type ToolCall,
  type ToolContext,
  type ToolName,
  type ToolOutput,
  VERDICTS,
} from '../core/vocabulary';
import { newToolCallId } from './call-ids';
import { clampScore, severityForScore } from './scoring';

/**
 * Runs one tool and records what happened as a ToolCall. A tool that throws is recorded as
 * `failed`, one that does not settle within the timeout as `timed_out`; neither throws out of here,
 * so one broken enricher never aborts an investigation. The workflow calls this once per Map
 * iteration (`runToolIn`, with the tools its step carries); tools.ts runs any tool by name for tests.
 */

export const DEFAULT_TOOL_TIMEOUT_MS = 10_000;
const MAX_FINDINGS_PER_TOOL = 20;
const MAX_EVIDENCE_ITEMS = 20;
const MAX_TEXT = 1000;
const MAX_RELATED_PER_TOOL = 50;

export interface RunToolOptions {
  timeoutMs?: number;
  /** Defaults to a random `tc_` ID; pass a deterministic one to make retried writes idempotent. */
  toolCallId?: string;
  /** Receives tool_started and then exactly one of tool_succeeded / tool_failed / tool_timed_out. */
  onEvent?: (event: InvestigationEvent) => void;
  /** The raw error of a failed tool, for logs only: the ToolCall carries a safe message instead. */
  onError?: (error: unknown, call: ToolCall) => void;
}

const TIMED_OUT = Symbol('timed out');

function safeMessage(error: unknown): string {
  // Domain errors are written to be shown; anything else may carry internal detail.
  return error instanceof DomainError ? error.message : 'The tool failed unexpectedly.';
}

const truncate = (text: unknown): string => String(text ?? '').slice(0, MAX_TEXT);

/** Enforces the output contract whatever a tool returned: bounded sizes, derived severities, own IDs. */
function sanitiseOutput(tool: ToolName, output: ToolOutput): ToolOutput {
  if (!output || typeof output !== 'object' || !Array.isArray(output.findings)) {
    throw new Error(`${tool} returned malformed output`);
  }
  const seen = new Set<string>();
  const findings: Finding[] = [];
  for (const raw of output.findings.slice(0, MAX_FINDINGS_PER_TOOL)) {
    const score = clampScore(raw.score);
    const rawId = String(raw.finding_id ?? 'finding');
    const baseId = rawId.startsWith(`${tool}:`) ? rawId : `${tool}:${rawId}`;
    let id = baseId;
    for (let n = 2; seen.has(id); n++) id = `${baseId}:${n}`;
    seen.add(id);
    const attack = normaliseAttack(Array.isArray(raw.attack) ? raw.attack : []);
    findings.push({
      finding_id: id,
      title: truncate(raw.title),
      description: truncate(raw.description),
      impact: truncate(raw.impact),
      severity: severityForScore(score),
      score,
      source_tool: tool,
      category: FINDING_CATEGORIES.includes(raw.category) ? raw.category : 'context',
      evidence: (Array.isArray(raw.evidence) ? raw.evidence : []).slice(0, MAX_EVIDENCE_ITEMS).map(truncate),
      ...(attack.length > 0 ? { attack } : {}),
      ...(VERDICTS.includes(raw.source_verdict as never) ? { source_verdict: raw.source_verdict } : {}),
      // Benign evidence carries no risk: a tool cannot mark a scored finding benign.
      ...(raw.benign === true && score === 0 ? { benign: true } : {}),
      ...(typeof raw.evidence_source === 'string' && raw.evidence_source
        ? { evidence_source: truncate(raw.evidence_source).slice(0, 128) }
        : {}),
      ...(raw.discounted && Number.isFinite(raw.discounted.score)
        ? { discounted: { score: clampScore(raw.discounted.score), reason: truncate(raw.discounted.reason) } }
        : {}),
    });
  }
  const related: RelatedEntity[] = [];
  for (const item of (Array.isArray(output.related) ? output.related : []).slice(0, MAX_RELATED_PER_TOOL)) {
    try {
      related.push({
        entity: normaliseEntity(item.entity),
        relationship: truncate(item.relationship).slice(0, 64),
        evidence: (item.evidence ?? []).slice(0, MAX_EVIDENCE_ITEMS).map(truncate),
        ...(item.known ? { known: true } : {}),
      });
    } catch {
      // A related entity that does not normalise is dropped rather than failing the whole tool.
    }
  }
  const attributes = scalarAttributes(output.attributes);
  return {
    facts: output.facts && typeof output.facts === 'object' ? output.facts : {},
    findings,
    related,
    ...(attributes ? { attributes } : {}),
  };
}

const MAX_ATTRIBUTES = 20;

/** Attributes are shown on the report's entity: short scalar values only. */
function scalarAttributes(raw: unknown): Attributes | undefined {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const out: Attributes = {};
  for (const [key, value] of Object.entries(raw).slice(0, MAX_ATTRIBUTES)) {
    if (!/^[a-z][a-z0-9_]{0,63}$/.test(key)) continue;
    if (typeof value === 'string') out[key] = value.slice(0, 256);
    else if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean')
      out[key] = value;
    else if (value === null) out[key] = null;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

export async function runTool(
  tool: Tool,
  entity: Entity,
  ctx: ToolContext,
  options: RunToolOptions = {},
): Promise<ToolCall> {
  const subject = normaliseEntity(entity);
  const clock = ctx.now ?? (() => new Date());
  const timeoutMs = options.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  const toolCallId = options.toolCallId ?? newToolCallId();
  const startedAt = clock();
  const started = performance.now();
  const emit = (type: InvestigationEvent['type'], detail: InvestigationEvent['detail']) =>
    options.onEvent?.({
      type,
      detail: { tool: tool.name, tool_call_id: toolCallId, ...detail },
      created_at: clock().toISOString(),
    });

  emit('tool_started', { entity: entityKey(subject) });
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs);
  });
  const base = {
    tool_call_id: toolCallId,
    name: tool.name,
    input: { entity: subject },
    started_at: startedAt.toISOString(),
  };
  const elapsed = () => Math.round(performance.now() - started);

  try {
    const outcome = await Promise.race([
      Promise.resolve().then(() =>
        tool.run(subject, {
          data: ctx.data,
          sessionId: ctx.sessionId,
          intel: ctx.intel,
          tlp: ctx.tlp,
          refreshIntel: ctx.refreshIntel,
          internalSuffixes: ctx.internalSuffixes,
          now: startedAt,
          limits: { ...DEFAULT_DATA_LIMITS, ...ctx.limits },
          signal: controller.signal,
          ...(ctx.offline ? { offline: ctx.offline } : {}),
          ...(ctx.feeds ? { feeds: ctx.feeds } : {}),
        }),
      ),
      deadline,
    ]);
    if (outcome === TIMED_OUT) {
      controller.abort();
      const call: ToolCall = {
        ...base,
        output: null,
        status: 'timed_out',
        error: `The tool did not finish within ${timeoutMs} ms.`,
        duration_ms: elapsed(),
      };
      emit('tool_timed_out', { timeout_ms: timeoutMs, duration_ms: call.duration_ms });
      return call;
    }
    const output = sanitiseOutput(tool.name, outcome);
    const age = outcome.cache?.age_seconds;
    const call: ToolCall = {
      ...base,
      output,
      status: 'succeeded',
      duration_ms: elapsed(),
      ...(typeof age === 'number' ? { cached: true, cache_age_seconds: Math.max(0, Math.round(age)) } : {}),
    };
    emit('tool_succeeded', {
      duration_ms: call.duration_ms,
      findings: output.findings.length,
      max_score: output.findings.reduce((max, f) => Math.max(max, f.score), 0),
    });
    return call;
  } catch (error) {
    if (error instanceof ToolSkippedError) {
      const call: ToolCall = {
        ...base,
        output: null,
        status: 'skipped',
        error: error.message,
        duration_ms: elapsed(),
      };
      emit('tool_skipped', { reason: error.message, duration_ms: call.duration_ms });
      return call;
    }
    const call: ToolCall = {
      ...base,
      output: null,
      status: 'failed',
      error: safeMessage(error),
      duration_ms: elapsed(),
    };
    options.onError?.(error, call);
    emit('tool_failed', { error: call.error ?? null, duration_ms: call.duration_ms });
    return call;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs the named tool of `tools`: each workflow tool step passes the set it carries (the built-in
 * tools, or the intelligence connectors'), so neither bundle holds the other's code. Throws
 * ValidationError (a bug in the caller, not a tool failure) when the set has no tool of that name or
 * the tool does not apply to the entity.
 */
export async function runToolIn(
  tools: readonly Tool[],
  name: string,
  entity: Entity,
  ctx: ToolContext,
  options: RunToolOptions = {},
): Promise<ToolCall> {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) {
    throw new ValidationError(`Unknown tool "${name}".`, [
      { path: 'tool', message: `must be one of ${tools.map((t) => t.name).join(', ')}` },
    ]);
  }
  const subject = normaliseEntity(entity);
  if (!tool.appliesTo(subject)) {
    throw new ValidationError(`Tool "${name}" does not apply to a ${subject.type}.`, [
      {
        path: 'tool',
        message: `applicable tools: ${tools
          .filter((t) => t.appliesTo(subject))
          .map((t) => t.name)
          .join(', ')}`,
      },
    ]);
  }
  return runTool(tool, subject, ctx, options);
}
