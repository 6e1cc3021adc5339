import { useState } from 'preact/hooks';

/** Past this many characters a text is shown cut, with "Show more". */
export const LONG_TEXT_CHARS = 700;

/**
 * A long text written for a reader (a persona's summary): its lines as paragraphs, the first
 * LONG_TEXT_CHARS characters' worth shown until "Show more" is pressed.
 */
export function LongText({ text, label }: { text: string; label: string }) {
  const [open, setOpen] = useState(false);
  const paragraphs = text.split(/\n+/).filter((line) => line.trim() !== '');
  const shown: string[] = [];
  let length = 0;
  for (const paragraph of paragraphs) {
    if (!open && shown.length > 0 && length + paragraph.length > LONG_TEXT_CHARS) break;
    shown.push(paragraph);
    length += paragraph.length;
  }
  const hidden = paragraphs.length - shown.length;
  return (
    <div class="long-text summary">
      {shown.map((paragraph, index) => (
        <p key={index}>{paragraph}</p>
      ))}
      {(hidden > 0 || open) && (
        <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? `Show less of the ${label}` : `Show more of the ${label} (${hidden} more paragraphs)`}
        </button>
      )}
    </div>
  );
}
