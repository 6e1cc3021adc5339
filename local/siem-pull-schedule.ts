/**
 * The local stand-in for the EventBridge Scheduler schedules of the SIEM pull connectors: runs the
 * real siem-pull handler every `intervalSeconds`, never two runs at once (a slow SIEM delays the
 * next run instead of overlapping it, as the connector's conditional watermark would refuse anyway).
 */
export interface SiemPullSchedule {
  /** Runs once now (tests, or an operator who does not want to wait). */
  runNow(): Promise<void>;
  stop(): Promise<void>;
}

export function startSiemPullSchedule(options: {
  intervalSeconds: number;
  run: () => Promise<unknown>;
  onError?: (error: unknown) => void;
}): SiemPullSchedule {
  let running: Promise<void> | undefined;
  const runNow = () => {
    running ??= options
      .run()
      .then(
        () => undefined,
        (error: unknown) => options.onError?.(error),
      )
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const timer = setInterval(() => void runNow(), options.intervalSeconds * 1000);
  timer.unref();
  return {
    runNow,
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
