/**
 * `mailroom log --verify`: prints each journalled message that fails verification and a summary;
 * throws SIGNATURE_INVALID (exit 5) when any failed.
 */
import { verifyJournal } from '../../core/trust/log-verify.js';
import { terminalSafe } from '../../core/text/terminal-text.js';
import { MailroomError } from '../../errors.js';
import type { Stores } from '../../store/selection.js';
import { writeLine } from './stop.js';

/** Runs the check and prints it (text lines, or one JSON document with `json`). @throws SIGNATURE_INVALID */
export async function runVerifyLog(o: { store: Stores; team: string; json: boolean }): Promise<void> {
  const r = await verifyJournal({ root: o.store, team: o.team });
  if (o.json) writeLine(JSON.stringify(r));
  else if (!r.signed) writeLine(`Team ${o.team} is not signed on this machine: nothing to verify.`);
  else {
    for (const f of r.failed) writeLine(terminalSafe(`FAILED ${f.at} ${f.from} → ${f.to} (msg_id ${f.msgId ?? 'none'}): ${f.reason} [${f.check}]`));
    writeLine(`${r.verified + r.unverified + r.failed.length} message(s) since signing: ${r.verified} verified, ${r.unverified} unverified (senders that cannot sign), ${r.failed.length} failed${r.before ? `; ${r.before} from before the team was signed` : ''}`);
  }
  if (r.failed.length > 0) {
    throw new MailroomError('SIGNATURE_INVALID', `${r.failed.length} message(s) in team "${o.team}"'s journal fail verification (listed above): forged, altered or replayed into another inbox.`, { details: { team: o.team, failed: r.failed.length } });
  }
}
