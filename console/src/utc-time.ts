/** The console's UTC date-time fields, without the browser: typed text to the API's ISO time. */

/**
 * What a person types into a "(UTC)" field, as the API's time: `2026-11-23` stays a date (the day's
 * start in UTC), `2026-11-23 14:00` or `2026-11-23T14:00` becomes `2026-11-23T14:00:00Z`. Anything else
 * is sent as typed, for the service to explain.
 */
export function utcQueryTime(text: string): string {
  const typed = text.trim();
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(:\d{2})?Z?$/i.exec(typed);
  return match ? `${match[1]}T${match[2]}${match[3] ?? ':00'}Z` : typed;
}

/** The pattern of the "(UTC)" date-time fields: a date, optionally with a time. */
export const UTC_TIME_PATTERN = '\\d{4}-\\d{2}-\\d{2}([ T]\\d{2}:\\d{2}(:\\d{2})?Z?)?';
