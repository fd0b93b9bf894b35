/**
 * Message text must be UTF-8 (issue 23). Bytes that are not UTF-8 would be replaced by U+FFFD
 * (the replacement character) on the way in — by Node when it decodes the command line, by a
 * lenient decoder on stdin — and the message stored changed without anyone noticing. So:
 * - text read from stdin (`-`) is decoded strictly: any byte sequence that is not UTF-8 is refused;
 * - text given as an argument is already decoded by Node, whose replacement cannot be told from
 *   a U+FFFD typed on purpose, so an argument holding U+FFFD is refused, pointing at stdin, where
 *   that character (bytes EF BF BD) passes.
 * Either way nothing is sent (MESSAGE_NOT_UTF8, exit 2).
 */
import { MailroomError } from '../../errors.js';

/** U+FFFD, what a decoder puts in place of bytes that are not UTF-8. */
const REPLACEMENT = '\uFFFD';

/**
 * `bytes` decoded as UTF-8, refused when they are not UTF-8.
 * @param what where the bytes came from, for the message (e.g. "stdin")
 * @throws MESSAGE_NOT_UTF8 naming the byte offset of the first invalid sequence
 */
export function decodeUtf8Strict(bytes: Uint8Array, what: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch (cause) {
    const offset = firstInvalidOffset(bytes);
    throw new MailroomError(
      'MESSAGE_NOT_UTF8',
      `The message text on ${what} is not UTF-8 (an invalid byte sequence at byte ${offset}); nothing was sent. Convert it first, e.g. \`iconv -f latin1 -t utf-8\`, then send it again.`,
      { cause, details: { source: what, offset } },
    );
  }
}

/**
 * `text` as given on the command line, refused when it holds U+FFFD (see the module comment).
 * @param what the argument's name, for the message (e.g. "the message argument")
 * @throws MESSAGE_NOT_UTF8
 */
export function assertArgumentUtf8(text: string, what: string): string {
  const at = text.indexOf(REPLACEMENT);
  if (at < 0) return text;
  throw new MailroomError(
    'MESSAGE_NOT_UTF8',
    `${what} holds U+FFFD at character ${at}: bytes that are not UTF-8 become that character when the command line is read, so the message would not be what was typed; nothing was sent. Convert the text to UTF-8 (e.g. \`iconv -f latin1 -t utf-8\`); to send U+FFFD itself, pipe the text in with "-" (stdin is checked byte by byte).`,
    { details: { source: what, offset: at } },
  );
}

/** Byte offset of the first sequence that is not UTF-8 in `bytes` (a U+FFFD written as its own bytes EF BF BD is valid). */
function firstInvalidOffset(bytes: Uint8Array): number {
  const lenient = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  for (let at = lenient.indexOf(REPLACEMENT); at >= 0; at = lenient.indexOf(REPLACEMENT, at + 1)) {
    const offset = Buffer.byteLength(lenient.slice(0, at), 'utf8');
    if (!(bytes[offset] === 0xef && bytes[offset + 1] === 0xbf && bytes[offset + 2] === 0xbd)) return offset;
  }
  return bytes.length;
}
