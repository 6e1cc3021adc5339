/**
 * The part of the Bedrock Runtime Converse API the analyst uses, as plain data (the domain imports
 * no SDK). Shapes follow the API reference: a message is `{role, content[]}` where a content block is
 * exactly one of `text`, `toolUse {toolUseId, name, input}` or `toolResult {toolUseId, content[],
 * status}`; the response carries `output.message`, `stopReason`, `usage` and `metrics.latencyMs`.
 */
export type JsonDocument =
  | string
  | number
  | boolean
  | null
  | JsonDocument[]
  | { [key: string]: JsonDocument };

export interface ToolUseBlock {
  toolUseId: string;
  name: string;
  input: JsonDocument;
}

export type ToolResultContent = { text: string } | { json: JsonDocument };

export interface ToolResultBlock {
  toolUseId: string;
  content: ToolResultContent[];
  status?: 'success' | 'error';
}

export type ContentBlock = { text: string } | { toolUse: ToolUseBlock } | { toolResult: ToolResultBlock };

export interface ConverseMessage {
  role: 'user' | 'assistant';
  content: ContentBlock[];
}

export interface ToolSpec {
  toolSpec: { name: string; description: string; inputSchema: { json: JsonDocument } };
}

export type ToolChoice =
  | { auto: Record<string, never> }
  | { any: Record<string, never> }
  | { tool: { name: string } };

export interface ConverseRequest {
  modelId: string;
  system: { text: string }[];
  messages: ConverseMessage[];
  toolConfig: { tools: ToolSpec[]; toolChoice?: ToolChoice };
  inferenceConfig: { maxTokens: number; temperature?: number };
  guardrailConfig?: { guardrailIdentifier: string; guardrailVersion: string; trace?: 'enabled' | 'disabled' };
}

/** Documented stopReason values; anything else is treated as a model error. */
export const STOP_REASONS = [
  'end_turn',
  'tool_use',
  'max_tokens',
  'stop_sequence',
  'guardrail_intervened',
  'content_filtered',
  'malformed_tool_use',
  'malformed_model_output',
  'model_context_window_exceeded',
] as const;
export type StopReason = (typeof STOP_REASONS)[number];

export interface ConverseResult {
  message: ConverseMessage | undefined;
  stopReason: string;
  usage: { inputTokens: number; outputTokens: number };
  latencyMs: number;
}

export function textOf(message: ConverseMessage | undefined): string {
  return (message?.content ?? [])
    .flatMap((block) => ('text' in block && typeof block.text === 'string' ? [block.text] : []))
    .join('\n')
    .trim();
}

export function toolUsesOf(message: ConverseMessage | undefined): ToolUseBlock[] {
  return (message?.content ?? []).flatMap((block) => ('toolUse' in block ? [block.toolUse] : []));
}
