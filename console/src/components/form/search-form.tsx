import { TextField } from './text-field';

/**
 * A list's search box: a `search` landmark holding one search field and its button. Sending it calls
 * `onSearch` instead of loading a page; the caller decides what searching means (a query, an address).
 */
export function SearchForm({
  label,
  name,
  placeholder,
  value,
  onValue,
  onSearch,
  button = 'Search',
}: {
  label: string;
  name?: string;
  placeholder?: string;
  value: string;
  onValue: (value: string) => void;
  onSearch: () => void;
  /** The button's text, when a page has more than one such form. */
  button?: string;
}) {
  return (
    <search>
      <form
        class="inline"
        onSubmit={(event) => {
          event.preventDefault();
          onSearch();
        }}
      >
        <TextField
          label={label}
          type="search"
          name={name}
          value={value}
          placeholder={placeholder}
          onValue={onValue}
        />
        <button type="submit">{button}</button>
      </form>
    </search>
  );
}
