// Signed teams (docs/approvals.md "Signed teams"): what Ed25519 costs per message — signing one
// entry, and verifying one (the member's certificate plus its signature, as a reader does) — in µs,
// beside the send latency of the same run: `sendMessage` from a member in an open team and in a
// signed one (the signed send also reads the pin, the sender's key file and the member records),
// and the guard's judgement of one delivered message.
import { sendMessage } from '../dist/core/messages/send.js';
import { ControlGuard, enableSigning } from '../dist/core/teams/signing.js';
import { spawnMember } from '../dist/core/members/spawn.js';
import { createTeam } from '../dist/core/teams/team-lifecycle.js';
import { decodeCertificate, decodeSignature, encodeCertificate, encodeSignature, makeCertificate, newKeyPair, newNonce, signEntry, verifyCertificate, verifyEntry } from '../dist/protocol/signature.js';
import { openFsStores } from '../dist/store/open.js';
import { median, quantile } from './lib/stats.mjs';

async function team(root, signed) {
  const stores = openFsStores(root);
  await createTeam({ root: stores, team: 'bench' });
  if (signed) await enableSigning({ root: stores, team: 'bench' });
  await spawnMember({ root: stores, team: 'bench', name: 'a', cwd: root });
  await spawnMember({ root: stores, team: 'bench', name: 'b', cwd: root });
  return stores;
}

/** µs per call of `fn`, one median over `rounds` rounds of `per` calls. */
function perCall(rounds, per, fn) {
  const out = [];
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    for (let i = 0; i < per; i++) fn(i);
    out.push(((performance.now() - start) * 1000) / per);
  }
  return out;
}

async function sends(stores, runs) {
  const times = [];
  for (let i = -5; i < runs; i++) {
    const start = performance.now();
    await sendMessage({ root: stores, team: 'bench', from: 'a', to: 'b', text: `message ${i} `.padEnd(200, 'x') });
    if (i >= 0) times.push(performance.now() - start);
  }
  return times;
}

export default async function signingBench(ctx) {
  const rounds = ctx.quick ? 10 : 30;
  const per = ctx.quick ? 200 : 1000;
  const lead = newKeyPair();
  const member = newKeyPair();
  const cert = decodeCertificate(encodeCertificate(makeCertificate(lead, 'bench', 'a', 1, member.publicKey)));
  const entry = { team: 'bench', from: 'a', to: 'b', msgId: 'm', text: 'x'.repeat(200), summary: undefined };
  const parts = signEntry(member, entry, { at: 2, nonce: newNonce(), incarnation: 1 });
  const sign = perCall(rounds, per, () => signEntry(member, entry, { at: 2, nonce: newNonce(), incarnation: 1 }));
  const field = encodeSignature(parts);
  const verify = perCall(rounds, per, () => verifyCertificate(cert, 'bench', 'a', lead.publicKey) && verifyEntry(member.publicKey, entry, decodeSignature(field)));

  const runs = ctx.quick ? 50 : 200;
  const open = await team(await ctx.tempRoot(), false);
  const signed = await team(await ctx.tempRoot(), true);
  const openSends = [];
  const signedSends = [];
  // Interleaved in blocks so drift hits both alike.
  for (let block = 0; block < 4; block++) {
    openSends.push(...(await sends(open, runs / 4)));
    signedSends.push(...(await sends(signed, runs / 4)));
  }
  const one = (await signed.team.readInbox('bench', 'b')).slice(-1);
  const judge = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await new ControlGuard({ root: signed, team: 'bench' }, 'b').judge(one);
    judge.push(performance.now() - start);
  }
  ctx.log(`signing: sign ${median(sign).toFixed(1)} µs, verify ${median(verify).toFixed(1)} µs per message; sendMessage open ${median(openSends).toFixed(2)} ms, signed ${median(signedSends).toFixed(2)} ms`);
  const openSend = { label: '`sendMessage`, open team', value: median(openSends) * 1000 };
  return [
    { metric: 'Sign one message (Ed25519, 200-byte text)', note: `median of ${rounds}×${per}`, value: median(sign), unit: 'µs', baseline: openSend },
    { metric: 'Verify one message (certificate + signature)', note: `median of ${rounds}×${per}`, value: median(verify), unit: 'µs', baseline: openSend },
    { metric: '`sendMessage` from a member, signed team', note: `median of ${runs}`, value: median(signedSends), unit: 'ms', baseline: { label: 'open team', value: median(openSends) } },
    { metric: '`sendMessage` from a member, signed team', note: `p90 of ${runs}`, value: quantile(signedSends, 0.9), unit: 'ms', baseline: { label: 'open team p90', value: quantile(openSends, 0.9) } },
    { metric: 'Guard judges one delivered message (reads pin, settings, records)', note: `median of ${runs}`, value: median(judge), unit: 'ms', baseline: { label: '`sendMessage`, open team', value: median(openSends) } },
  ];
}
