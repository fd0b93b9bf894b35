/** How the dashboard names its store on the page. */
import { redactUrl } from '../store/open.js';
import type { StoreSelection } from '../store/selection.js';

/** The root directory, or the store URL with its password hidden. */
export function storeLabel(selection: StoreSelection): string {
  return selection.kind === 'fs' ? selection.root : redactUrl(selection.url);
}
