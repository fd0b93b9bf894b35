/** Sending the lead a pending teammate's `endorsement_request` (core/trust/endorsement.ts). */
import { hostname } from 'node:os';
import { leadName } from '../../domain/roster.js';
import { teamOf, type TeamOptions } from '../context.js';
import { sendMessage } from '../messages/send.js';
import { endorsementRequestText } from './endorsement.js';

/**
 * Sends the lead, from `member`, a request to endorse its key `keyId` (incarnation `joinedAt`, ms).
 * @throws what sending throws (store errors)
 */
export async function requestEndorsement(options: TeamOptions, member: string, keyId: string, joinedAt: number): Promise<void> {
  const lead = leadName(await teamOf(options).readConfig(options.team));
  const text = endorsementRequestText({ member, keyId, joinedAt, host: hostname() });
  await sendMessage({ ...options, from: member, to: lead, text, summary: `${member} asks to be endorsed: run \`mailroom team endorse ${member}\` on the lead's machine` });
}
