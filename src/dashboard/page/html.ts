/** The page's view functions are preact components written with htm's tagged templates (no JSX build step). */
import { h } from 'preact';
import htm from 'htm';

/** `html\`<div>…</div>\`` → a preact VNode. */
export const html = htm.bind(h);
