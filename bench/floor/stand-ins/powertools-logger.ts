/**
 * An empty stand-in for @aws-lambda-powertools/logger, for the probe that measures the HTTP shell
 * without Powertools (bench/floor/dependency-probes.ts). Never run: the probe is only imported.
 */
export class Logger {
  info(): void {}
  warn(): void {}
  error(): void {}
  debug(): void {}
  appendKeys(): void {}
  removeKeys(): void {}
  resetKeys(): void {}
  addContext(): void {}
}
