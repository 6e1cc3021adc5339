import { readWorkflowDefinitionText } from '../../infra/workflow/definition';

/**
 * Step Functions (Standard) bills one state transition per state entered, Map iterations included.
 * This walks the investigation ASL's success path (StartAt → Next … → End/Succeed, no Catch) and
 * returns the transitions of a run that maps over `items` tool items, so the cost model follows the
 * definition as it is, not a hand count.
 */
interface State {
  Type: string;
  Next?: string;
  End?: boolean;
  ItemProcessor?: { StartAt: string; States: Record<string, State> };
  Iterator?: { StartAt: string; States: Record<string, State> };
}

function pathLength(startAt: string, states: Record<string, State>, items: number): number {
  let count = 0;
  let name: string | undefined = startAt;
  const seen = new Set<string>();
  while (name) {
    if (seen.has(name)) throw new Error(`the ASL success path loops at ${name}`);
    seen.add(name);
    const state: State | undefined = states[name];
    if (!state) throw new Error(`the ASL names an unknown state ${name}`);
    count += 1;
    const processor = state.ItemProcessor ?? state.Iterator;
    if (state.Type === 'Map' && processor)
      count += items * pathLength(processor.StartAt, processor.States, items);
    if (state.End || state.Type === 'Succeed' || state.Type === 'Fail') break;
    name = state.Next;
  }
  return count;
}

export function successfulRunTransitions(items: number): number {
  const definition = JSON.parse(readWorkflowDefinitionText()) as {
    StartAt: string;
    States: Record<string, State>;
  };
  return pathLength(definition.StartAt, definition.States, items);
}
