/**
 * A `mailroom run` nobody can make progress in: every hosted teammate's last
 * {@link DEFAULT_MAX_FAILED_TURNS} turns failed in a row (its model call threw: the API is down, the
 * key is wrong, the base URL points at nothing). Their mail is put back and retried with a growing
 * hold-back, so the team never goes quiet; without this the run waited for its whole timeout. A
 * successful turn resets the member's count. The run ends then (docs/runtime.md "Running a team
 * file": `endReason: "models-failing"`).
 */

/** Failed turns in a row, per member, after which that member counts as unable to make progress. */
export const DEFAULT_MAX_FAILED_TURNS = 3;

/** Counts failed turns in a row per member; fires `onStalled` once when every watched member is at the limit. */
export class StallWatch {
  private readonly streaks = new Map<string, { count: number; last: string }>();
  private fired = false;

  /**
   * @param members the names of the hosted teammates still running (asked at each failure)
   * @param limit failed turns in a row (≥ 1)
   * @param onStalled called once, with the members' last failure reasons
   */
  constructor(
    private readonly members: () => readonly string[],
    private readonly limit: number,
    private readonly onStalled: (reasons: ReadonlyMap<string, string>) => void,
  ) {}

  /** Records the end of one turn of `name`. */
  turn(name: string, turn: { failed: boolean; reason?: string }): void {
    if (!turn.failed) {
      this.streaks.delete(name);
      return;
    }
    const seen = this.streaks.get(name);
    this.streaks.set(name, { count: (seen?.count ?? 0) + 1, last: turn.reason ?? 'no reason given' });
    const members = this.members();
    if (this.fired || members.length === 0) return;
    if (!members.every((m) => (this.streaks.get(m)?.count ?? 0) >= this.limit)) return;
    this.fired = true;
    this.onStalled(new Map(members.map((m) => [m, this.streaks.get(m)!.last])));
  }
}

/** The one-line cause of a stalled run, naming each member's last failure (identical reasons said once). */
export function stallCause(reasons: ReadonlyMap<string, string>, limit: number): string {
  const byReason = new Map<string, string[]>();
  for (const [name, reason] of reasons) byReason.set(reason, [...(byReason.get(reason) ?? []), name]);
  const parts = [...byReason].map(([reason, names]) => `${names.join(', ')}: ${reason}`);
  return `every member's model call failed ${limit} times in a row (${parts.join('; ')})`;
}
