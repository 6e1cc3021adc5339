import { describe, expect, it } from 'vitest';
import { DEFAULT_TLP, TLP_LEVELS, tlpAllows, tlpOf } from '../../../shared/domain/core/tlp';

describe('TLP 2.0 levels', () => {
  it('orders clear < green < amber < amber+strict < red', () => {
    expect(TLP_LEVELS).toEqual(['clear', 'green', 'amber', 'amber+strict', 'red']);
    expect(tlpAllows('amber', 'amber')).toBe(true);
    expect(tlpAllows('green', 'amber')).toBe(true);
    expect(tlpAllows('amber+strict', 'amber')).toBe(false);
    expect(tlpAllows('red', 'amber')).toBe(false);
    expect(tlpAllows('red', 'red')).toBe(true);
    expect(tlpAllows('clear', 'clear')).toBe(true);
    expect(tlpAllows('green', 'clear')).toBe(false);
  });

  it('reads a session recorded before TLP existed as amber', () => {
    expect(DEFAULT_TLP).toBe('amber');
    expect(tlpOf(undefined)).toBe('amber');
    expect(tlpOf('bogus')).toBe('amber');
    expect(tlpOf('red')).toBe('red');
  });
});
