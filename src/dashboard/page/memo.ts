/**
 * Rows that redraw only when their data changed. A patch (src/dashboard/patch.ts) keeps every
 * unchanged message, task and member the same object, so comparing props with `===` is enough
 * to skip them: a change redraws its own rows, not the whole list.
 */
import { Component, type ComponentChild } from 'preact';

/** A component drawing `view(props)`, skipped while every prop is the same (`===`) as last time. */
export function memo<P extends object>(view: (props: P) => ComponentChild): new () => Component<P> {
  return class Memo extends Component<P> {
    override shouldComponentUpdate(next: P): boolean {
      const a = this.props as Record<string, unknown>;
      const b = next as Record<string, unknown>;
      for (const k in b) if (a[k] !== b[k]) return true;
      for (const k in a) if (!(k in b)) return true;
      return false;
    }

    override render(props: P): ComponentChild {
      return view(props);
    }
  };
}
