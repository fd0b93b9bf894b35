/**
 * A text typed where a message or question goes that is spelled like one of the flags that take no
 * value (`team send bob "--json"`: the shell drops the quotes). Options are read before `--`
 * (docs/cli.md "Arguments"), so it stays the flag; the refusal of the missing text then names it
 * and says how to send it as text.
 */
import { optionPart } from './value-args.js';

/** The global flags without a value that such a text may have been read as. */
export const TEXT_LIKE_FLAGS: readonly string[] = ['--json', '--claude', '--allow-volatile'];

/** The first of {@link TEXT_LIKE_FLAGS} typed before `--` in `argv`, if any. */
export function flagReadAsText(argv: readonly string[]): string | undefined {
  return optionPart(argv).find((w) => TEXT_LIKE_FLAGS.includes(w));
}

/** ` "--json" was read as an option; to send it as the text, …` for the flag in `argv`, else ''. */
export function readAsOptionHint(argv: readonly string[]): string {
  const flag = flagReadAsText(argv);
  return flag === undefined ? '' : ` "${flag}" was read as an option; to send it as the text, put it after --, as \`-- ${flag}\` at the end of the line.`;
}
