/**
 * The roster fields of a member mailroom registers say what it really is (src/protocol/backend.ts):
 * no pane and no Claude Code backend for members mailroom runs (in-process host, own process, MCP
 * client), Claude Code's own values only for a real tmux or iTerm2 pane; `shutdown_approved` names a
 * pane and a backend only when the member has them.
 */
import { describe, expect, it } from 'vitest';
import { hasInProcessShape, rosterBackend, shutdownPaneFields } from '../../../src/protocol/backend.js';

describe('rosterBackend', () => {
  it.each(['in-process', 'process', 'mcp'] as const)('%s: no pane, no backendType', (runtime) => {
    expect(rosterBackend(runtime)).toEqual({ tmuxPaneId: '' });
    expect(rosterBackend(runtime, '%3')).toEqual({ tmuxPaneId: '' });
  });

  it('a real pane: Claude Code’s own values', () => {
    expect(rosterBackend('tmux', '%7')).toEqual({ tmuxPaneId: '%7', backendType: 'tmux' });
    expect(rosterBackend('iterm2', 'FE23EBFE-6FDD-42B7-A500-2C4DECDE802E')).toEqual({ tmuxPaneId: 'FE23EBFE-6FDD-42B7-A500-2C4DECDE802E', backendType: 'iterm2' });
  });

  it('a pane member whose pane does not exist yet: no pane, and no backend a lead could kill "" with', () => {
    expect(rosterBackend('tmux')).toEqual({ tmuxPaneId: '' });
  });
});

describe('shutdownPaneFields', () => {
  it('names neither for a member mailroom runs', () => {
    expect(shutdownPaneFields({ tmuxPaneId: '' })).toEqual({});
  });
  it('copies Claude Code’s values as they are (2.1.109 snapshot 5: in-process / in-process)', () => {
    expect(shutdownPaneFields({ tmuxPaneId: 'in-process', backendType: 'in-process' })).toEqual({ paneId: 'in-process', backendType: 'in-process' });
    expect(shutdownPaneFields({ tmuxPaneId: '%2', backendType: 'tmux' })).toEqual({ paneId: '%2', backendType: 'tmux' });
  });
});

describe('hasInProcessShape', () => {
  it("is Claude Code's in-process teammate and the 2.1.332 lead, not a member mailroom runs or a pane teammate", () => {
    expect(hasInProcessShape({ tmuxPaneId: 'in-process', backendType: 'in-process' })).toBe(true);
    expect(hasInProcessShape({ tmuxPaneId: 'leader', backendType: 'in-process' })).toBe(true);
    expect(hasInProcessShape({ tmuxPaneId: '' })).toBe(false);
    expect(hasInProcessShape({ tmuxPaneId: '%1', backendType: 'tmux' })).toBe(false);
  });
});
