/**
 * A message the tracker learns of from the journal before it reads the recipient's inbox again
 * (the dashboard under load: CI saw "from the library" pushed as read) is unread until an inbox
 * read after it shows it gone; only then is it "read, removed" (its reader removed it).
 */
import { describe, expect, it } from 'vitest';
import { MessageBook } from '../../../../src/core/live/message-book.js';
import { makeInboxEntry } from '../../../../src/protocol/inbox.js';

const entry = (text: string) => makeInboxEntry({ from: 'team-lead', text, timestamp: '2026-12-07T23:00:00.000Z', msgId: `m-${text}` });
const status = (book: MessageBook, text: string) => {
  const v = book.views().find((m) => m.entry.text === text);
  return v && { status: v.status, removed: v.removed };
};

describe('MessageBook: a message known from the journal before its inbox is read again', () => {
  it('is unread, not removed, while the last inbox read came before it was known', () => {
    const book = new MessageBook();
    book.setInbox('alice', []); // read before the send landed
    book.addKnown('alice', entry('hello')); // the journal's message event
    expect(status(book, 'hello')).toEqual({ status: 'unread', removed: undefined });
  });

  it('is read and removed once an inbox read after it no longer holds it', () => {
    const book = new MessageBook();
    book.setInbox('alice', []);
    book.addKnown('alice', entry('hello'));
    book.setInbox('alice', []); // read again: gone (its reader removed it)
    expect(status(book, 'hello')).toEqual({ status: 'read', removed: true });
  });

  it('takes the inbox read that holds it as it is (unread, then read)', () => {
    const book = new MessageBook();
    book.setInbox('alice', []);
    book.addKnown('alice', entry('hello'));
    book.setInbox('alice', [entry('hello')]);
    expect(status(book, 'hello')).toEqual({ status: 'unread', removed: undefined });
    book.setInbox('alice', [{ ...entry('hello'), read: true }]);
    expect(status(book, 'hello')).toEqual({ status: 'read', removed: undefined });
  });

  it('an archived entry (read) added before its inbox is read counts as read', () => {
    const book = new MessageBook();
    book.addKnown('alice', { ...entry('old'), read: true });
    book.setInbox('alice', []);
    expect(status(book, 'old')).toEqual({ status: 'read', removed: true });
  });
});
