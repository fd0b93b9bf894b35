/**
 * The task board as a dependency graph: dagre (its own script, `window.dagre`, loaded the first
 * time the graph is shown so that it costs the first paint nothing) lays the tasks out left to
 * right along their `blockedBy` edges, again only when the tasks changed; drawn as SVG, coloured
 * by status.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { html } from './html.js';
import type { WireTask } from '../wire.js';

interface DagreGraph {
  setGraph(g: object): void;
  setDefaultEdgeLabel(f: () => object): void;
  setNode(id: string, n: { width: number; height: number }): void;
  setEdge(from: string, to: string): void;
  node(id: string): { x: number; y: number; width: number; height: number };
  edges(): { v: string; w: string }[];
  edge(e: { v: string; w: string }): { points: { x: number; y: number }[] };
  graph(): { width?: number; height?: number };
}
interface Dagre {
  graphlib: { Graph: new () => DagreGraph };
  layout(g: DagreGraph): void;
}

const W = 190;
const H = 44;

let loading: Promise<Dagre | undefined> | undefined;
const loaded = (): Dagre | undefined => (window as unknown as { dagre?: Dagre }).dagre;

/** dagre, its script added to the page on first use; undefined when it fails to load. */
function loadDagre(): Promise<Dagre | undefined> {
  loading ??= new Promise((resolve) => {
    const script = document.createElement('script');
    script.src = '/assets/dagre.min.js';
    script.onload = () => resolve(loaded());
    script.onerror = () => resolve(undefined);
    document.head.append(script);
  });
  return loading;
}

/** The SVG graph of `tasks` (a message while dagre loads, or when it did not). */
export function TaskGraph({ tasks }: { tasks: WireTask[] }) {
  const [dagre, setDagre] = useState<Dagre | 'failed' | undefined>(loaded());
  useEffect(() => {
    if (!dagre) void loadDagre().then((d) => setDagre(d ?? 'failed'));
  }, []);
  const drawn = useMemo(() => (dagre && dagre !== 'failed' && tasks.length > 0 ? draw(dagre, tasks) : undefined), [dagre, tasks]);
  if (dagre === 'failed') return html`<p class="empty">The graph layout did not load.</p>`;
  if (!dagre) return html`<p class="empty">Loading the graph layout…</p>`;
  if (tasks.length === 0) return html`<p class="empty">No tasks yet.</p>`;
  return drawn;
}

function draw(dagre: Dagre, tasks: WireTask[]) {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'LR', nodesep: 14, ranksep: 48, marginx: 8, marginy: 8 });
  g.setDefaultEdgeLabel(() => ({}));
  const known = new Set(tasks.map((t) => t.id));
  for (const t of tasks) g.setNode(t.id, { width: W, height: H });
  for (const t of tasks) for (const b of t.blockedBy) if (known.has(b)) g.setEdge(b, t.id);
  dagre.layout(g);
  const size = g.graph();
  return html`<svg class="graph" role="img" aria-label="Task dependency graph" width=${(size.width ?? 0) + 16} height=${(size.height ?? 0) + 16}>
    <defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" class="arrow" /></marker></defs>
    ${g.edges().map((e) => html`<polyline class="edge" marker-end="url(#arrow)" points=${g.edge(e).points.map((p) => `${p.x},${p.y}`).join(' ')} />`)}
    ${tasks.map((t) => {
      const n = g.node(t.id);
      return html`<g class=${`node status-${t.status}${t.ready ? ' ready' : ''}`} transform=${`translate(${n.x - W / 2},${n.y - H / 2})`} data-task=${t.id}>
        <title>#${t.id} ${t.subject} — ${t.status}${t.owner ? `, ${t.owner}` : ''}</title>
        <rect width=${W} height=${H} rx="6" />
        <text x="8" y="17" class="id">#${t.id} ${t.owner ?? (t.ready ? 'ready' : '')}</text>
        <text x="8" y="34">${t.subject.length > 26 ? `${t.subject.slice(0, 25)}…` : t.subject}</text>
      </g>`;
    })}
  </svg>`;
}
