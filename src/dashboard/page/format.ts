/** Small formatting helpers for the page. */

/** `09:33:51` of an ISO-8601 time or epoch ms, in the viewer's time zone. */
export function clock(at: string | number | undefined): string {
  if (at === undefined) return '-';
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? '-' : d.toLocaleTimeString([], { hour12: false });
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
