/**
 * Endorsement across machines (docs/approvals.md "Signed teams"): a teammate spawned on a machine
 * that does not hold the lead's private key gets a key pair there, its public key in its member
 * record without the lead's certificate (pending), and it sends the lead an `endorsement_request`
 * (a structured message mailroom understands; Claude Code ignores unknown types). Until the lead
 * runs `mailroom team endorse <member>` on its machine, what the teammate sends is withheld
 * (check `unendorsed`); the request itself is shown, as unverified.
 */

/** The `endorsement_request` a pending teammate sends the lead (docs/format.md). */
export interface EndorsementRequest {
  type: 'endorsement_request';
  /** The teammate to endorse. */
  member: string;
  /** Id of its public key (16 hex digits, sha-256 of the key), to compare with `team show`/`team endorse`. */
  keyId: string;
  /** Its incarnation (roster `joinedAt`, ms since the epoch). */
  joinedAt: number;
  /** Where it was spawned (host name), as it reports it. */
  host: string;
}

/** The text of an endorsement request. */
export function endorsementRequestText(request: Omit<EndorsementRequest, 'type'>): string {
  return JSON.stringify({ type: 'endorsement_request', ...request });
}

/** Whether `text` is an `endorsement_request`. */
export function isEndorsementRequest(text: string): boolean {
  try {
    const parsed = JSON.parse(text) as { type?: unknown };
    return parsed?.type === 'endorsement_request';
  } catch {
    return false;
  }
}
