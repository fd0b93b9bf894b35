/**
 * The catalogue as the Markdown table docs/runtime.md and docs/mcp.md show ("Tool catalogue"),
 * rendered from the catalogue itself so the docs cannot drift from the code.
 */
import { argName, type Catalogue, type Surface, type ToolEntry } from '../../src/tools/index.js';

const code = (s: string) => `\`${s}\``;

function args(entry: ToolEntry): string {
  const surfaces = (['runtime', 'mcp'] as Surface[]).filter((s) => entry.names[s] !== undefined);
  const cells = Object.entries(entry.input.shape).map(([key, field]) => {
    const optional = (field as { isOptional(): boolean }).isOptional() ? '?' : '';
    const names = [...new Set(surfaces.map((s) => argName(entry, s, key)))];
    return names.map((n) => code(`${n}${optional}`)).join(' / ');
  });
  return cells.length > 0 ? cells.join(', ') : '–';
}

function rules(catalogue: Catalogue, entry: ToolEntry): string {
  const parts = [
    ...catalogue.rulesOf(entry).map((r) => code(r.name)),
    ...(entry.invokes.length > 0 ? [`runs ${entry.invokes.map(code).join(', ')} (their rules apply)`] : []),
    ...entry.requires.map((s) => `needs the ${s} service`),
    ...(entry.hints.readOnly ? ['read-only'] : []),
    ...(entry.hints.destructive ? ['destructive'] : []),
  ];
  return parts.length > 0 ? parts.join('; ') : '–';
}

/** The table, one row per entry in catalogue order. */
export function toolTable(catalogue: Catalogue): string {
  const rows = catalogue.entries.map((e) => `| ${code(e.id)} | ${e.names.runtime ? code(e.names.runtime) : '–'} | ${e.names.mcp ? code(e.names.mcp) : '–'} | ${args(e)} | ${rules(catalogue, e)} |`);
  return ['| Tool | Runtime | MCP | Arguments (runtime / MCP name; `?` optional) | Rules, needs |', '|---|---|---|---|---|', ...rows].join('\n');
}
