/**
 * The bridge state's log (src/bridge/state.ts, src/store/fs/bridge-state.ts) on a real host store:
 * a load is the state written whole plus the lines appended since; a line the whole state already
 * holds (a crash between writing the state and emptying its log) changes nothing; a line cut short
 * by a crash is skipped; writing the state whole empties the log.
 */
import { appendFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyState, loadState, logLine, stateText } from '../../../src/bridge/state.js';
import { openFsStores } from '../../../src/store/open.js';
import type { HostStore } from '../../../src/store/host-store.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

describe('bridge state log', () => {
  let dir: TempDir;
  let host: HostStore;
  beforeEach(async () => {
    dir = await makeTempDir('mailroom-state-log-');
    host = openFsStores(dir.path).host;
  });
  afterEach(() => dir.cleanup());

  it('loads the whole state plus the lines appended since, in order', async () => {
    await host.writeBridgeState('t', stateText({ ...emptyState(), synced: { a: ['1', '2'] }, members: { a: 'local' } }));
    await host.appendBridgeStateLog('t', logLine([{ member: 'a', add: ['3'], drop: ['1'] }]));
    await host.appendBridgeStateLog('t', logLine([{ member: 'b', add: ['x'], drop: [] }, { member: 'a', add: ['1'], drop: [] }]));
    const s = await loadState(host, 't');
    expect(new Set(s.synced.a)).toEqual(new Set(['1', '2', '3']));
    expect(s.synced.b).toEqual(['x']);
    expect(s.members).toEqual({ a: 'local' });
  });

  it('applies a line the state already holds to the same result, skips a torn line, and starts over on a whole write', async () => {
    const line = logLine([{ member: 'a', add: ['3'], drop: ['1'] }]);
    await host.writeBridgeState('t', stateText({ ...emptyState(), synced: { a: ['2', '3'] } }));
    await host.appendBridgeStateLog('t', line);
    await appendFile(`${dir.path}/mailroom/bridge/t.log.ndjson`, line.slice(0, 20));
    expect(new Set((await loadState(host, 't')).synced.a)).toEqual(new Set(['2', '3']));
    await host.writeBridgeState('t', stateText({ ...emptyState(), synced: { a: ['9'] } }));
    expect(await host.readBridgeStateLog('t')).toEqual([]);
    expect((await loadState(host, 't')).synced.a).toEqual(['9']);
  });
});
