/**
 * Just enough of the source map format (v3, VLQ "mappings") to answer "which source file produced
 * the code at this offset of the bundle": used to attribute executed functions to packages.
 */
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...BASE64].map((c, i) => [c, i]));

export interface SourceLookup {
  /** The source path (as written in the map's `sources`) of the generated code at `offset`. */
  sourceAt(offset: number): string | undefined;
}

function decodeSegment(segment: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = DIGIT.get(char);
    if (digit === undefined) throw new Error(`invalid VLQ character ${char}`);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

export function sourceLookup(generated: string, map: { sources: string[]; mappings: string }): SourceLookup {
  const lineStarts = [0];
  for (let i = 0; i < generated.length; i++) if (generated.charCodeAt(i) === 10) lineStarts.push(i + 1);
  // Per generated line: sorted [column, source index] pairs.
  const lines: Array<Array<[number, number]>> = [];
  let source = 0;
  for (const line of map.mappings.split(';')) {
    const segments: Array<[number, number]> = [];
    let column = 0;
    if (line) {
      for (const segment of line.split(',')) {
        const fields = decodeSegment(segment);
        column += fields[0] ?? 0;
        if (fields.length >= 4) {
          source += fields[1] ?? 0;
          segments.push([column, source]);
        }
      }
    }
    lines.push(segments);
  }
  return {
    sourceAt(offset) {
      let lo = 0;
      let hi = lineStarts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if ((lineStarts[mid] as number) <= offset) lo = mid;
        else hi = mid - 1;
      }
      const column = offset - (lineStarts[lo] as number);
      const segments = lines[lo] ?? [];
      let found: number | undefined;
      let a = 0;
      let b = segments.length - 1;
      while (a <= b) {
        const mid = (a + b) >> 1;
        const [segmentColumn, segmentSource] = segments[mid] as [number, number];
        if (segmentColumn <= column) {
          found = segmentSource;
          a = mid + 1;
        } else {
          b = mid - 1;
        }
      }
      return found === undefined ? undefined : map.sources[found];
    },
  };
}

/** `node_modules/@scope/name/...` → `@scope/name`; project files → their top two folders. */
export function packageOf(path: string): string {
  const modules = [...path.matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)/g)].at(-1);
  if (modules) return modules[1] as string;
  const project = path.replace(/^(\.\.\/)+/, '').replace(/^\.\//, '');
  return project.split('/').slice(0, 2).join('/');
}
