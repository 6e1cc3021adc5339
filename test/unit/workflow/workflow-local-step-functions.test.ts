import {
  DescribeExecutionCommand,
  ExecutionAlreadyExists,
  ExecutionDoesNotExist,
  SFNClient,
  StartExecutionCommand,
  StopExecutionCommand,
} from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalStepFunctions, startLocalStepFunctions } from '../../../local/step-functions';

/**
 * The local Step Functions endpoint, driven by the real @aws-sdk/client-sfn over its wire protocol,
 * running the real ASL with stand-in step handlers (the real ones are exercised by the integration
 * tests).
 */
type Event = Record<string, unknown>;

const invocations: { fn: string; event: Event }[] = [];
const gates = new Map<string, Promise<void>>();

async function stepHandler(fn: string, event: Event): Promise<unknown> {
  invocations.push({ fn, event });
  const session = String(event.session_id ?? '');
  await gates.get(session);
  switch (fn) {
    case 'step-mark-active':
      return {
        entity: { type: 'domain', value: 'example.com' },
        tools: ['one'],
        intel_tools: ['intel_two'],
        tlp: 'amber',
        refresh_intel: false,
        // MarkActive always names the analyst mode: the built-in tools' Map hands it to each tool.
        analyst: 'rules',
      };
    case 'step-run-tool':
    case 'step-run-intel':
      return { tool: event.tool, status: 'succeeded', recorded: true };
    case 'step-assess':
      if (session === 'broken') throw new RangeError('assessment exploded');
      return { report: { verdict: 'benign' } };
    case 'step-persist':
      if (session === 'huge') return { blob: 'x'.repeat(300 * 1024) };
      return { session_id: session, status: 'completed' };
    default:
      return { ok: true };
  }
}

let sfn: LocalStepFunctions;
let client: SFNClient;

beforeAll(async () => {
  sfn = await startLocalStepFunctions({
    loadHandler: async (fn) => async (event) => stepHandler(fn, event as Event),
  });
  client = new SFNClient({
    endpoint: sfn.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
});

afterAll(async () => {
  await sfn?.stop();
});

const start = (name: string, sessionId: string) =>
  client.send(
    new StartExecutionCommand({
      stateMachineArn: sfn.stateMachineArn,
      name,
      input: JSON.stringify({ session_id: sessionId }),
    }),
  );

const describeRun = (executionArn: string) => client.send(new DescribeExecutionCommand({ executionArn }));
const statusChanges = (name: string) =>
  invocations.filter((i) => i.fn === 'workflow-status-change' && (i.event.detail as Event).name === name);

describe('local Step Functions endpoint', () => {
  it('runs an execution to SUCCEEDED and describes it, sending no status-change event', async () => {
    const started = await start('run-ok', 's-ok');
    expect(started.executionArn).toBe(
      `${sfn.stateMachineArn.replace(':stateMachine:', ':execution:')}:run-ok`,
    );
    expect(started.startDate).toBeInstanceOf(Date);
    await sfn.idle();
    const described = await describeRun(started.executionArn!);
    expect(described.status).toBe('SUCCEEDED');
    expect(JSON.parse(described.output!)).toEqual({ session_id: 's-ok', status: 'completed' });
    expect(JSON.parse(described.input!)).toEqual({ session_id: 's-ok' });
    expect(described.stopDate!.getTime()).toBeGreaterThanOrEqual(described.startDate!.getTime());
    expect(statusChanges('run-ok')).toHaveLength(0);
    // The plan's two lists: its connector tools run in step-run-intel, its built-in tools in step-run-tool.
    const toolSteps = invocations
      .filter((i) => i.event.session_id === 's-ok' && String(i.fn).startsWith('step-run-'))
      .map((i) => `${i.fn}:${i.event.tool}`)
      .sort();
    expect(toolSteps).toEqual(['step-run-intel:intel_two', 'step-run-tool:one']);
    // Only the built-in tools learn the mode (a rules run defers their history to its end).
    const analystOf = (fn: string) =>
      invocations.find((i) => i.event.session_id === 's-ok' && i.fn === fn)?.event.analyst;
    expect([analystOf('step-run-tool'), analystOf('step-run-intel')]).toEqual(['rules', undefined]);
  });

  it('answers a repeated start with the same name and input idempotently, and refuses other input', async () => {
    let open!: () => void;
    gates.set('s-dup', new Promise<void>((resolve) => (open = resolve)));
    const first = await start('run-dup', 's-dup');
    const again = await start('run-dup', 's-dup');
    expect(again.executionArn).toBe(first.executionArn);
    await expect(start('run-dup', 's-other')).rejects.toBeInstanceOf(ExecutionAlreadyExists);
    open();
    await sfn.idle();
    await expect(start('run-dup', 's-dup')).rejects.toBeInstanceOf(ExecutionAlreadyExists);
  });

  it('delivers the EventBridge status-change event when an execution fails', async () => {
    const started = await start('run-broken', 'broken');
    await sfn.idle();
    const described = await describeRun(started.executionArn!);
    expect(described.status).toBe('FAILED');
    expect(described.error).toBe('InvestigationFailed');
    const markFailed = invocations.find(
      (i) => i.fn === 'step-mark-failed' && i.event.session_id === 'broken',
    );
    // What Lambda reports to Step Functions: Error is the error's name, Cause the runtime's JSON.
    expect(markFailed?.event.error).toEqual({
      Error: 'RangeError',
      Cause: JSON.stringify({ errorType: 'RangeError', errorMessage: 'assessment exploded' }),
    });
    const [change] = statusChanges('run-broken');
    expect(change?.event).toMatchObject({
      source: 'aws.states',
      'detail-type': 'Step Functions Execution Status Change',
      resources: [started.executionArn],
      detail: {
        executionArn: started.executionArn,
        stateMachineArn: sfn.stateMachineArn,
        name: 'run-broken',
        status: 'FAILED',
        input: JSON.stringify({ session_id: 'broken' }),
        error: 'InvestigationFailed',
      },
    });
  });

  it('fails a state whose output exceeds the 256 KB payload limit, as Step Functions does', async () => {
    const started = await start('run-huge', 'huge');
    await sfn.idle();
    const markFailed = invocations.find((i) => i.fn === 'step-mark-failed' && i.event.session_id === 'huge');
    expect((markFailed?.event.error as Event | undefined)?.Error).toBe('States.DataLimitExceeded');
    expect((await describeRun(started.executionArn!)).status).toBe('FAILED');
  });

  it('stops a running execution: ABORTED, and the status-change event says so', async () => {
    let open!: () => void;
    gates.set('s-stop', new Promise<void>((resolve) => (open = resolve)));
    const started = await start('run-stop', 's-stop');
    const stopped = await client.send(
      new StopExecutionCommand({ executionArn: started.executionArn, cause: 'canceled by the caller' }),
    );
    expect(stopped.stopDate).toBeInstanceOf(Date);
    open();
    await sfn.idle();
    expect((await describeRun(started.executionArn!)).status).toBe('ABORTED');
    expect(statusChanges('run-stop').map((c) => (c.event.detail as Event).status)).toEqual(['ABORTED']);
    // Nothing after the step that was running when it stopped.
    expect(invocations.some((i) => i.fn === 'step-assess' && i.event.session_id === 's-stop')).toBe(false);
  });

  it('answers unknown executions and unknown state machines with the AWS error types', async () => {
    await expect(describeRun(`${sfn.stateMachineArn}:nope`)).rejects.toBeInstanceOf(ExecutionDoesNotExist);
    await expect(
      client.send(
        new StartExecutionCommand({ stateMachineArn: `${sfn.stateMachineArn}-other`, input: '{}' }),
      ),
    ).rejects.toMatchObject({ name: 'StateMachineDoesNotExist' });
    await expect(
      client.send(new StartExecutionCommand({ stateMachineArn: sfn.stateMachineArn, name: 'bad name!' })),
    ).rejects.toMatchObject({ name: 'InvalidName' });
  });

  it('abandons running executions on stop() without any status-change event, as a crash would', async () => {
    const other = await startLocalStepFunctions({
      loadHandler: async (fn) => async (event) => stepHandler(fn, event as Event),
    });
    let open!: () => void;
    gates.set('s-crash', new Promise<void>((resolve) => (open = resolve)));
    const otherClient = new SFNClient({
      endpoint: other.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    await otherClient.send(
      new StartExecutionCommand({
        stateMachineArn: other.stateMachineArn,
        name: 'run-crash',
        input: JSON.stringify({ session_id: 's-crash' }),
      }),
    );
    const stopping = other.stop();
    open();
    await stopping;
    expect(statusChanges('run-crash')).toHaveLength(0);
    expect(invocations.some((i) => i.fn === 'step-run-tool' && i.event.session_id === 's-crash')).toBe(false);
  });

  it('runs at most maxRunningExecutions at once: the others wait RUNNING, and one stopped while waiting never runs', async () => {
    const bounded = await startLocalStepFunctions({
      loadHandler: async (fn) => async (event) => stepHandler(fn, event as Event),
      maxRunningExecutions: 1,
    });
    const boundedClient = new SFNClient({
      endpoint: bounded.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const startBounded = (name: string, sessionId: string) =>
      boundedClient.send(
        new StartExecutionCommand({
          stateMachineArn: bounded.stateMachineArn,
          name,
          input: JSON.stringify({ session_id: sessionId }),
        }),
      );
    try {
      let open!: () => void;
      gates.set('s-slot-first', new Promise<void>((resolve) => (open = resolve)));
      const first = await startBounded('run-slot-first', 's-slot-first');
      const second = await startBounded('run-slot-second', 's-slot-second');
      const third = await startBounded('run-slot-third', 's-slot-third');
      const stepsOf = (session: string) => invocations.filter((i) => i.event.session_id === session);
      await new Promise((wake) => setTimeout(wake, 50));
      // The first holds the one slot; the others are accepted and RUNNING, but no step of theirs ran.
      expect(stepsOf('s-slot-first').length).toBeGreaterThan(0);
      expect(stepsOf('s-slot-second')).toHaveLength(0);
      const describeBounded = (arn: string) =>
        boundedClient.send(new DescribeExecutionCommand({ executionArn: arn }));
      expect((await describeBounded(second.executionArn!)).status).toBe('RUNNING');
      await boundedClient.send(new StopExecutionCommand({ executionArn: third.executionArn }));
      open();
      await bounded.idle();
      expect((await describeBounded(first.executionArn!)).status).toBe('SUCCEEDED');
      expect((await describeBounded(second.executionArn!)).status).toBe('SUCCEEDED');
      expect((await describeBounded(third.executionArn!)).status).toBe('ABORTED');
      expect(stepsOf('s-slot-third')).toHaveLength(0);
      expect(statusChanges('run-slot-third').map((c) => (c.event.detail as Event).status)).toEqual([
        'ABORTED',
      ]);
    } finally {
      await bounded.stop();
    }
  });

  it('runs the same definition as Express: names may repeat, no Stop or Describe, no status-change event', async () => {
    const startExpress = (name: string, sessionId: string) =>
      client.send(
        new StartExecutionCommand({
          stateMachineArn: sfn.expressStateMachineArn,
          name,
          input: JSON.stringify({ session_id: sessionId }),
        }),
      );
    const first = await startExpress('run-express', 's-express');
    const second = await startExpress('run-express', 's-express');
    expect(first.executionArn).toMatch(/:express:sis-local-investigation-express:run-express:/);
    expect(second.executionArn).not.toBe(first.executionArn);
    await expect(describeRun(first.executionArn!)).rejects.toMatchObject({ name: 'InvalidArn' });
    await expect(
      client.send(new StopExecutionCommand({ executionArn: first.executionArn! })),
    ).rejects.toMatchObject({ name: 'InvalidArn' });
    await sfn.idle();
    // Both executions ran the same states as a Standard run (each Task once per execution).
    const persisted = invocations.filter(
      (i) => i.fn === 'step-persist' && i.event.session_id === 's-express',
    );
    expect(persisted).toHaveLength(2);
    // A failing Express run ends in MarkFailed inside the definition, and nothing is delivered after.
    await startExpress('run-express-broken', 'broken');
    await sfn.idle();
    expect(invocations.some((i) => i.fn === 'step-mark-failed' && i.event.session_id === 'broken')).toBe(
      true,
    );
    expect(statusChanges('run-express-broken')).toHaveLength(0);
  });
});
