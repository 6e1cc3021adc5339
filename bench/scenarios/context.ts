/** What every scenario gets from the runner. */
export interface ScenarioContext {
  quick: boolean;
  /** The run's DynamoDB Local (in memory). */
  dynamodbEndpoint: string;
  /** Progress line on stderr. */
  say(message: string): void;
}

/** Alternates the order of two measurements from round to round, so drift hits both alike. */
export async function alternate<T>(
  round: number,
  first: () => Promise<T>,
  second: () => Promise<T>,
): Promise<[T, T]> {
  if (round % 2 === 0) {
    const a = await first();
    const b = await second();
    return [a, b];
  }
  const b = await second();
  const a = await first();
  return [a, b];
}
