import { Option } from 'commander';
import { parsePositiveInt } from '../durations';

/** `--limit <n>` of a list command, 1 to `max`. */
export const limit = (max: number) =>
  new Option('--limit <n>', `at most this many per page (1-${max})`).argParser((v) =>
    parsePositiveInt(v, '--limit'),
  );

/** A list option given comma-separated, repeated, or both (`--scopes a,b --scopes c`). */
export const collectList = (value: string, previous: string[] = []) => [
  ...previous,
  ...value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
];
