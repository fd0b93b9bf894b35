/**
 * DeliveryBook (src/core/messages/delivery-book.ts), the dashboard's incremental delivery states:
 * each state of the rule in delivery-status.ts from the journal's `delivery` events — queued until
 * handed out, delivered while handed to a consumer but not read, then read, replied, and
 * dead-lettered over all of them.
 */
import { describe, expect, it } from 'vitest';
import { DeliveryBook } from '../../../src/core/messages/delivery-book.js';
import { deliveryEvent } from '../../../src/domain/events.js';
import { entryKey } from '../../../src/domain/entries.js';
import type { DeliveryEvent } from '../../../src/protocol/events.js';
import type { InboxEntry } from '../../../src/protocol/inbox.js';

const stamp = { team: 'demo', at: Date.UTC(2026, 2, 1, 10), source: 'mailroom' as const };
const entry: InboxEntry = { from: 'team-lead', text: 'look at the parser', timestamp: '2026-03-01T09:59:00.000Z', read: false, msg_id: 'm-1' };
const event = (state: DeliveryEvent['state'], to = 'alice', e: InboxEntry = entry) => deliveryEvent(stamp, to, entryKey(e), state, 'lease-1');
const unread = { read: false, replied: false };

describe('DeliveryBook', () => {
  it('is queued with no delivery event', () => {
    expect(new DeliveryBook().stateOf('alice', entry, unread)).toBe('queued');
  });

  it('is delivered once handed to a consumer that has not read it, and only for that recipient', () => {
    const book = new DeliveryBook();
    book.apply([event('delivered')]);
    expect(book.stateOf('alice', entry, unread)).toBe('delivered');
    expect(book.stateOf('bob', entry, unread)).toBe('queued');
  });

  it('stays delivered when the lease is released (a release makes it unread again, not undelivered)', () => {
    const book = new DeliveryBook();
    book.apply([event('delivered'), event('released')]);
    expect(book.stateOf('alice', entry, unread)).toBe('delivered');
  });

  it('is no longer dead-lettered once handed back (a name that rejoins gets its dead letters back unread)', () => {
    const book = new DeliveryBook();
    book.apply([event('dead-lettered'), event('released')]);
    expect(book.stateOf('alice', entry, unread)).toBe('queued');
    book.apply([event('dead-lettered')]);
    expect(book.stateOf('alice', entry, unread)).toBe('dead-lettered');
  });

  it('is read when journalled read or when the entry is read', () => {
    const book = new DeliveryBook();
    book.apply([event('delivered'), event('read')]);
    expect(book.stateOf('alice', entry, unread)).toBe('read');
    expect(new DeliveryBook().stateOf('alice', entry, { read: true, replied: false })).toBe('read');
  });

  it('is replied once a reply is known, over read', () => {
    const book = new DeliveryBook();
    book.apply([event('delivered'), event('read')]);
    expect(book.stateOf('alice', entry, { read: true, replied: true })).toBe('replied');
  });

  it('is dead-lettered over every other state', () => {
    const book = new DeliveryBook();
    book.apply([event('delivered'), event('dead-lettered')]);
    expect(book.stateOf('alice', entry, { read: true, replied: true })).toBe('dead-lettered');
  });

  it('keys an entry without msg_id by from, timestamp and text', () => {
    const plain: InboxEntry = { from: 'bob', text: 'hi', timestamp: '2026-03-01T09:00:00.000Z', read: false };
    const book = new DeliveryBook();
    book.apply([event('delivered', 'alice', plain)]);
    expect(book.stateOf('alice', plain, unread)).toBe('delivered');
    expect(book.stateOf('alice', { ...plain, text: 'hi!' }, unread)).toBe('queued');
  });
});
