import { flushMetrics } from '../observability';

/**
 * The wrapper of a scheduled function (an EventBridge rule or schedule on AWS, a timer in the local
 * runtime): runs its one piece of work and writes the metrics it recorded, whether it succeeded or
 * threw. A throw reaches Lambda unchanged, so the next run (or the schedule's retry) tries again.
 */
export function scheduledHandler<E, T>(work: (event: E) => Promise<T>): (event: E) => Promise<T> {
  return async (event) => {
    try {
      return await work(event);
    } finally {
      flushMetrics();
    }
  };
}
