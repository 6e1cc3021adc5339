/**
 * The local stand-in for a scheduled EventBridge rule: runs `run` every `intervalSeconds`, never two
 * runs at once (a slow run delays the next instead of overlapping it). The timer does not keep the
 * process alive, and stop() waits for a run in progress.
 */
export interface IntervalJob<T> {
  /** Runs once now, or joins the run in progress; rejects when that run fails. */
  runNow(): Promise<T>;
  stop(): Promise<void>;
}

export function startIntervalJob<T>(options: {
  /** Absent: the job runs only when asked (runNow). */
  intervalSeconds: number | undefined;
  run: () => Promise<T>;
  onError?: (error: unknown) => void;
}): IntervalJob<T> {
  let running: Promise<T> | undefined;
  const runNow = () => {
    running ??= options.run().finally(() => {
      running = undefined;
    });
    return running;
  };
  const timer =
    options.intervalSeconds === undefined
      ? undefined
      : setInterval(
          () => void runNow().catch((error: unknown) => options.onError?.(error)),
          options.intervalSeconds * 1000,
        );
  timer?.unref();
  return {
    runNow,
    stop: async () => {
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
