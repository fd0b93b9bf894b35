// Cost of one send (core sendMessage, in process) against the size of the recipient's read
// history (../shared/cases/03; issue 24 item 4: no send pays for archiving). A send never archives;
// read history moves to <root>/mailroom/archive in a reader's step or in the archiver's pass beside
// the sends (docs/format.md "Inbox archive"). Per history size, each on a fresh team:
// - reader archived: the history is read but its last message, which a mailroom reader (the
//   runtime's Mailbox) takes and acknowledges; that acknowledgement moves the read history (timed
//   on its own), then the first send and the steady sends are timed;
// - nobody archived: the lead's inbox as Claude Code leaves it (it marks read in place and never
//   archives) before any archiver's pass, or an in-process teammate's (never archived
//   automatically): every send rewrites the whole JSON array; then the archiver's one pass (timed),
//   then the steady sends again.
// Baseline: the same send to a new team's empty inbox, interleaved with the timed sends
// (one before each), so that both see the same load.
import { readFile, writeFile } from 'node:fs/promises';
import { sendMessage } from '../dist/core/messages/send.js';
import { archiveLargeInboxes } from '../dist/core/messages/inbox-archiver.js';
import { Mailbox } from '../dist/runtime/delivery/mailbox.js';
import { ReaderLease } from '../dist/core/members/reader-claim.js';
import { Layout } from '../dist/store/fs/paths.js';
import { openFsStores } from '../dist/store/open.js';
import { median } from './lib/stats.mjs';
import { makeTeam, writeHistory } from './lib/setup.mjs';

const send = (root, i) => sendMessage({ root: openFsStores(root), team: 't', from: 'a', to: 'team-lead', text: `probe ${i}` });

/** `runs` timed sends to `root`, each after one to a new team's empty inbox; the medians of both. */
async function timeSends(ctx, root, runs) {
  const emptyRoot = await teamWithHistory(ctx, 0, false);
  const times = [];
  const base = [];
  for (let i = 0; i < runs; i++) {
    base.push(await timed(() => send(emptyRoot, i)));
    times.push(await timed(() => send(root, i)));
  }
  return { times, base: median(base) };
}

async function timed(fn) {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** A team whose lead's inbox holds `size` read messages (the last one unread when `lastUnread`). */
async function teamWithHistory(ctx, size, lastUnread) {
  const root = await ctx.tempRoot();
  await makeTeam(root, ['a']);
  if (size === 0) return root;
  await writeHistory(root, 'team-lead', size);
  if (lastUnread) {
    const path = new Layout(root).inboxPath('t', 'team-lead');
    const entries = JSON.parse(await readFile(path, 'utf8'));
    entries.at(-1).read = false;
    await writeFile(path, JSON.stringify(entries, null, 2));
  }
  return root;
}

/** The reader takes and acknowledges the unread message; then the first and the steady sends. */
async function readerArchived(ctx, size, runs) {
  const root = await teamWithHistory(ctx, size, true);
  const stores = openFsStores(root);
  // The runtime's takes name its reader claim as their fence (session 20): hold one, as a runtime does.
  const reader = await ReaderLease.take(stores, 't', 'team-lead', 'in-process', { beatMs: 3_600_000 });
  const mailbox = new Mailbox(stores, 't', 'team-lead', 'team-lead', reader.token);
  const ack = await timed(async () => mailbox.acknowledge(await mailbox.take()));
  await reader.release();
  const { times: [first, ...rest], base } = await timeSends(ctx, root, runs + 1);
  return { ack, first, steady: median(rest), base };
}

/** Sends to an inbox nobody archived, then the archiver's pass, then the steady sends. */
async function nobodyArchived(ctx, size, runs) {
  const root = await teamWithHistory(ctx, size, false);
  const { times: [first, ...rest], base } = await timeSends(ctx, root, runs + 1);
  const pass = await timed(() => archiveLargeInboxes({ root: openFsStores(root), team: 't' }));
  const after = await timeSends(ctx, root, runs);
  return { first, steady: median(rest), base, pass, archived: median(after.times), afterBase: after.base };
}

export default async function historyBench(ctx) {
  const sizes = ctx.quick ? [1_000, 10_000] : [1_000, 10_000, 100_000];
  const runs = ctx.quick ? 5 : 21;
  const rows = [];
  await readerArchived(ctx, 1_000, runs); // warm-up: JIT and file system caches, discarded
  for (const size of sizes) {
    const reader = await readerArchived(ctx, size, runs);
    const nobody = await nobodyArchived(ctx, size, size >= 100_000 ? 5 : runs);
    ctx.log(`history ${size}: reader archived: ack ${reader.ack.toFixed(1)} ms, first send ${reader.first.toFixed(2)}, steady ${reader.steady.toFixed(2)} (empty ${reader.base.toFixed(2)}); nobody archived: first ${nobody.first.toFixed(1)}, steady ${nobody.steady.toFixed(1)} (empty ${nobody.base.toFixed(2)}), archiver pass ${nobody.pass.toFixed(1)}, then ${nobody.archived.toFixed(2)} (empty ${nobody.afterBase.toFixed(2)}) ms`);
    const label = `${size.toLocaleString('en-US')} read messages`;
    const empty = (value) => ({ label: 'empty inbox, interleaved', value });
    rows.push({ metric: `First send after ${label}, the reader archived them on its acknowledgement`, value: reader.first, unit: 'ms', baseline: empty(reader.base), goal: 'no send pays for archiving (issue 24): ≈ the empty-inbox send' });
    rows.push({ metric: `Send, ${label} in history, the reader archived them (steady)`, value: reader.steady, unit: 'ms', baseline: empty(reader.base) });
    rows.push({ metric: `The reader's acknowledgement of 1 message that moves ${label} to the archive (once)`, value: reader.ack, unit: 'ms', baseline: empty(reader.base) });
    rows.push({ metric: `First send after ${label} nobody archived (Claude Code-read inbox before the archiver's pass; the JSON array rewritten whole)`, value: nobody.first, unit: 'ms', baseline: empty(nobody.base), goal: 'no send pays for archiving (issue 24)' });
    rows.push({ metric: `Send, ${label} in history nobody archived (Claude Code-read inbox before the archiver's pass; the JSON array rewritten whole)`, value: nobody.steady, unit: 'ms', baseline: empty(nobody.base) });
    rows.push({ metric: `The archiver's pass moving ${label} of an inbox nobody archived (once, beside the sends)`, value: nobody.pass, unit: 'ms', baseline: { label: 'one send to that inbox before it', value: nobody.steady } });
    rows.push({ metric: `Send, ${label} in history, after the archiver's pass (steady)`, value: nobody.archived, unit: 'ms', baseline: empty(nobody.afterBase) });
  }
  return rows;
}
