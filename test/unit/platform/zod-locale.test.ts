import { describe, expect, it } from 'vitest';
import * as z from '../../../shared/zod';

// This file imports neither the configuration nor zod classic: classic sets the English locale on its
// first schema and would hide a module that validates with mini and no locale ("Invalid input").
describe('the service zod (shared/zod.ts)', () => {
  it('reports English messages, as classic does, without the configuration loaded', () => {
    const schema = z.object({
      limit: z.number().check(z.int(), z.gte(1)),
      name: z.string().check(z.minLength(2)),
      kind: z.enum(['ip', 'user']),
    });
    const messages = z
      .safeParse(schema, { limit: 0.5, name: 'x', kind: 'host' })
      .error?.issues.map((i) => i.message);
    expect(messages).toEqual([
      'Invalid input: expected int, received number',
      'Too small: expected string to have >=2 characters',
      'Invalid option: expected one of "ip"|"user"',
    ]);
  });
});
