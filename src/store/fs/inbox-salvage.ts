/**
 * Salvaging a corrupt inbox file (issue 9 item 4): the complete entries of a truncated array (a
 * writer killed mid-write, a full disk) or of one with a garbled stretch are found and kept; only
 * the bytes that do not make a valid entry are set aside. `mailroom doctor --fix` writes the kept
 * entries back into the inbox (health-repair.ts) and keeps the original file beside it as
 * `<agent>.json.corrupt-<stamp>`; `readInboxHistory` lists the entries of such files that are not
 * in the live inbox as quarantined (`mailroom inbox --all`). Pure.
 */
import { entryKey } from '../../domain/entries.js';
import { isInboxEntry, type InboxEntry } from '../../protocol/inbox.js';

/** What {@link salvageInboxText} found. */
export interface Salvage {
  /** The valid entries, in file order, each identity once. */
  entries: InboxEntry[];
  /** UTF-8 bytes of the stretches between kept entries that are not just the array's brackets, commas and whitespace (those trimmed off each stretch). */
  setAsideBytes: number;
}

/**
 * Every complete, valid inbox entry in `text`, whatever surrounds it. Scans for objects: from each
 * `{` it finds the matching `}` (strings and escapes respected), parses the span and keeps it when
 * it is an inbox entry; otherwise it moves on from the next `{`. Linear for an intact array.
 */
export function salvageInboxText(text: string): Salvage {
  const entries: InboxEntry[] = [];
  const seen = new Set<string>();
  let setAsideBytes = 0;
  const outside = (stretch: string) => (setAsideBytes += Buffer.byteLength(stretch.replace(/^[\s,[\]]+|[\s,[\]]+$/g, ''), 'utf8'));
  let pos = 0;
  let from = 0;
  while ((pos = text.indexOf('{', pos)) !== -1) {
    const end = matchingBrace(text, pos);
    const entry = end === -1 ? undefined : parseEntry(text.slice(pos, end + 1));
    if (!entry) {
      pos++;
      continue;
    }
    outside(text.slice(from, pos));
    if (!seen.has(entryKey(entry))) {
      seen.add(entryKey(entry));
      entries.push(entry);
    }
    pos = from = end + 1;
  }
  outside(text.slice(from));
  return { entries, setAsideBytes };
}

/** Index of the `}` closing the object that starts at `start`, or -1 when the text ends first. */
function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b) depth++;
    else if (c === 0x7d && --depth === 0) return i;
  }
  return -1;
}

function parseEntry(span: string): InboxEntry | undefined {
  try {
    const value: unknown = JSON.parse(span);
    // The object as written (its keys in their order), once it is known to be an entry.
    return isInboxEntry(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
