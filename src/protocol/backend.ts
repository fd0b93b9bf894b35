/**
 * What a member's `tmuxPaneId` and `backendType` say about how it runs, so that Claude Code 2.1.109
 * and 2.1.332 leads treat every member mailroom registers for what it is (docs/format.md §4
 * "Backend type and pane id" has the evidence).
 *
 * Claude Code's own values: `backendType` is `tmux`, `iterm2` or `in-process`, or absent (the
 * 2.1.109 lead); `tmuxPaneId` is a tmux `%N`, an iTerm2 UUID, `in-process`, `""` (the 2.1.109
 * lead, and a member whose pane is not created yet) or `leader` (the 2.1.332 session lead)
 * (reference §2). A member mailroom runs — in a mailroom process (`mailroom run`, `mailroom agent`,
 * `team spawn --backend process`) or as an MCP client — is none of Claude Code's backends, and the
 * lead runs no part of it:
 *
 * - not `in-process`: a 2.1.332 lead treats a message from a roster member on an `in-process` or
 *   `leader` pane it does not run itself as suspect (issue 17), and 2.1.109's teardown would look
 *   for an in-memory teammate;
 * - not `tmux`/`iterm2` without a real pane: on `shutdown_approved` the lead kills pane `paneId`
 *   through that backend (reference §7.4), which would hit a pane that is not the member's;
 * - no new value (`process`, `mcp`): 2.1.332 validates `backendType` against its enum and flags
 *   anything else as malformed (reference §4 "Request ids").
 *
 * So such a member gets `tmuxPaneId: ""` and no `backendType`: the shape of the 2.1.109 lead and of
 * a member without a pane, which both versions read. How it really runs is kept in mailroom's own
 * member record (`<root>/mailroom/members/`, docs/format.md "Member records"). A member in a real
 * tmux or iTerm2 pane is recorded as Claude Code records its pane teammates.
 */

/** How mailroom runs a member it registers. */
export type MemberRuntime = 'in-process' | 'process' | 'mcp' | 'tmux' | 'iterm2';

/** Every {@link MemberRuntime}, for validation and help texts. */
export const MEMBER_RUNTIMES: readonly MemberRuntime[] = ['in-process', 'process', 'mcp', 'tmux', 'iterm2'];

/** The Claude Code backends whose members live in a terminal pane the lead can kill. */
export const PANE_BACKENDS: readonly string[] = ['tmux', 'iterm2'];

/** The roster fields that tell Claude Code what a member is. */
export interface RosterBackend {
  /** A real pane id (`%N`, an iTerm2 session UUID), or `""`: no pane. */
  tmuxPaneId: string;
  /** Set only for a member in a real Claude Code backend pane (`tmux`, `iterm2`). */
  backendType?: 'tmux' | 'iterm2';
}

/**
 * The `tmuxPaneId`/`backendType` to record for a member mailroom runs as `runtime` (see the module
 * comment): `{tmuxPaneId: paneId, backendType}` for a tmux or iTerm2 member with a pane, else
 * `{tmuxPaneId: ""}` without `backendType` (a pane member whose pane does not exist yet included).
 */
export function rosterBackend(runtime: MemberRuntime, paneId?: string): RosterBackend {
  if ((runtime === 'tmux' || runtime === 'iterm2') && paneId) return { tmuxPaneId: paneId, backendType: runtime };
  return { tmuxPaneId: '' };
}

/**
 * The `paneId`/`backendType` a `shutdown_approved` copies from the member's entry (reference §7.4
 * step 3): a pane id only when there is one (not `""`), a backend type only when set. For a member
 * mailroom runs this is neither, so the lead's teardown kills no pane and goes on to remove the
 * member and unassign its tasks.
 */
export function shutdownPaneFields(member: { tmuxPaneId?: string | undefined; backendType?: string | undefined }): { paneId?: string; backendType?: string } {
  const out: { paneId?: string; backendType?: string } = {};
  if (member.tmuxPaneId) out.paneId = member.tmuxPaneId;
  if (member.backendType !== undefined) out.backendType = member.backendType;
  return out;
}

/**
 * True when the entry has Claude Code's in-process teammate shape (`backendType` or `tmuxPaneId`
 * `in-process`): a teammate the Claude Code lead runs inside itself — or, before mailroom 0.2, a
 * member mailroom registered with that shape (its member record tells them apart).
 */
export function hasInProcessShape(member: { tmuxPaneId?: string | undefined; backendType?: string | undefined }): boolean {
  return member.backendType === 'in-process' || member.tmuxPaneId === 'in-process';
}
