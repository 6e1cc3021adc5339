import type { ComponentChildren } from 'preact';

/**
 * A fieldset of checkboxes choosing some of `options`: the legend names the group, each box is
 * labelled by its option (shown through `optionLabel`, plain text unless given).
 */
export function CheckboxGroup({
  legend,
  name,
  options,
  chosen,
  onToggle,
  optionClass,
  optionLabel = (option) => option,
}: {
  legend: string;
  name: string;
  options: readonly string[];
  chosen: readonly string[];
  onToggle: (option: string, checked: boolean) => void;
  optionClass?: string;
  optionLabel?: (option: string) => ComponentChildren;
}) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option} class={optionClass}>
          <input
            type="checkbox"
            name={name}
            value={option}
            checked={chosen.includes(option)}
            onChange={(e) => onToggle(option, e.currentTarget.checked)}
          />{' '}
          {optionLabel(option)}
        </label>
      ))}
    </fieldset>
  );
}
