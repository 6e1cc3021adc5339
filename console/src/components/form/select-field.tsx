import type { ComponentChildren } from 'preact';

/**
 * A labelled drop-down choosing one of `options`: the label wraps the select, so it names it without
 * an id. Each option shows `optionLabel(option)`, the option itself unless given.
 */
export function SelectField<Option extends string>({
  label,
  name,
  value,
  onValue,
  options,
  optionLabel = (option) => option,
}: {
  label: string;
  name: string;
  value: Option;
  onValue: (value: Option) => void;
  options: readonly Option[];
  optionLabel?: (option: Option) => ComponentChildren;
}) {
  return (
    <label>
      {label}
      <select name={name} value={value} onChange={(e) => onValue(e.currentTarget.value as Option)}>
        {options.map((option) => (
          <option key={option} value={option}>
            {optionLabel(option)}
          </option>
        ))}
      </select>
    </label>
  );
}
