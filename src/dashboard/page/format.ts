/** Small formatting helpers for the page. */

// One formatter for the page: `toLocaleTimeString` with options builds a new Intl.DateTimeFormat on
// every call (milliseconds each in Chromium), which made drawing 500 messages take seconds.
const TIME = new Intl.DateTimeFormat([], { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });

/** `09:33:51` of an ISO-8601 time or epoch ms, in the viewer's time zone. */
export function clock(at: string | number | undefined): string {
  if (at === undefined) return '-';
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? '-' : TIME.format(d);
}

/** `3 s ago`, `2 min ago` of an epoch ms, judged at `now`. */
export function ago(at: number | undefined, now: number): string {
  if (at === undefined) return '-';
  const s = Math.max(0, Math.round((now - at) / 1000));
  return s < 60 ? `${s} s ago` : s < 3600 ? `${Math.round(s / 60)} min ago` : `${Math.round(s / 3600)} h ago`;
}

/** `1 message`, `2 messages`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
