import { describe, expect, it } from 'vitest';
import { factLabel, factValue } from '../../../console/src/facts';

describe('console entity facts', () => {
  it('are labelled as people read them', () => {
    expect(factLabel('asn')).toBe('ASN');
    expect(factLabel('as_org')).toBe('AS organisation');
    expect(factLabel('country')).toBe('Country');
    expect(factLabel('network_class')).toBe('Network class');
    expect(factLabel('some_new_fact')).toBe('Some new fact');
  });

  it('show an ASN as AS<number> and booleans as yes/no', () => {
    expect(factValue('asn', 15169)).toBe('AS15169');
    expect(factValue('is_idn', true)).toBe('yes');
    expect(factValue('country', 'US')).toBe('US');
  });
});
