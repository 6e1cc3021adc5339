import type { Entity } from '../../core/entity';
import { normaliseEntity } from '../../core/entity-normalisation';
import type { Tool, ToolCall, ToolContext } from '../../core/vocabulary';
import { type RunToolOptions, runToolIn } from '../engine';
import { BUILT_IN_TOOLS } from './built-in-tools';
import { toolsFor } from './tool-catalogue';
import { INTEL_TOOLS } from './tool-intel';

/**
 * Every tool, in the order reports list them (TOOL_NAMES' order, types.ts): entity-specific analysis
 * and history first (built-in-tools.ts), then the intelligence connectors (tool-intel.ts). The
 * workflow never loads this list: each of its tool steps carries only its own half.
 */
export const TOOLS: readonly Tool[] = [...BUILT_IN_TOOLS, ...INTEL_TOOLS];

/** Runs the named tool of any kind (tests and scripts; each workflow step uses its own set). */
export function runToolByName(
  name: string,
  entity: Entity,
  ctx: ToolContext,
  options: RunToolOptions = {},
): Promise<ToolCall> {
  return runToolIn(TOOLS, name, entity, ctx, options);
}

/** Runs every applicable tool (or the named ones) concurrently; results in report order. */
export async function runTools(
  entity: Entity,
  ctx: ToolContext,
  options: Omit<RunToolOptions, 'toolCallId'> & { tools?: readonly string[] } = {},
): Promise<ToolCall[]> {
  const subject = normaliseEntity(entity);
  const names = options.tools ?? toolsFor(subject);
  return Promise.all(names.map((name) => runToolByName(name, subject, ctx, options)));
}
