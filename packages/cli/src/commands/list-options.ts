import { Option } from 'commander';
import { parsePositiveInt } from '../durations';

/** `--limit <n>` of a list command, 1 to `max`. */
export const limit = (max: number) =>
  new Option('--limit <n>', `at most this many per page (1-${max})`).argParser((v) =>
    parsePositiveInt(v, '--limit'),
  );
