import { randomUUID } from 'node:crypto';

/**
 * A tool call's ID. Apart from types.ts because that module is also the web console's (persona
 * names), which is built for the browser, where `node:crypto` does not resolve.
 */
export function newToolCallId(): string {
  return `tc_${randomUUID().replaceAll('-', '')}`;
}
