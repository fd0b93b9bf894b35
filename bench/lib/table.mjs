// Renders bench rows as one markdown table: metric, value, baseline (same run), ratio.

/** Formats a number with a sensible precision for its size. */
export function fmt(value) {
  if (!Number.isFinite(value)) return String(value);
  if (Math.abs(value) >= 100) return value.toFixed(0);
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

/**
 * One markdown table of `rows` (see bench/run.mjs for the row shape): each figure beside its
 * baseline (same run), the ratio, the goal (`goal`, e.g. "≤ 1.5×" or "≥ 5 000 msg/s") and the
 * 1-minute load average when the row's module finished (`load`, set by bench/run.mjs).
 */
export function renderTable(rows) {
  const lines = ['| Metric | Value | Baseline (same run) | Ratio | Goal | Load |', '|---|---:|---|---:|---|---:|'];
  for (const r of rows) {
    const value = `${fmt(r.value)} ${r.unit}`;
    const baseline = r.baseline ? `${r.baseline.label}: ${fmt(r.baseline.value)} ${r.unit}` : '–';
    const ratio = r.baseline && r.baseline.value > 0 ? `${fmt(r.value / r.baseline.value)}×` : '–';
    const load = typeof r.load === 'number' ? r.load.toFixed(1) : '–';
    lines.push(`| ${r.metric}${r.note ? ` (${r.note})` : ''} | ${value} | ${baseline} | ${ratio} | ${r.goal ?? '–'} | ${load} |`);
  }
  return lines.join('\n');
}
