import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createModel, parseModelSpec } from '../../../src/runtime/models/index.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

let dir: TempDir;
beforeEach(async () => (dir = await makeTempDir()));
afterEach(() => dir.cleanup());

describe('--model kind:name', () => {
  it('parses every kind, defaulting to the worker', () => {
    expect(parseModelSpec(undefined)).toEqual({ kind: 'worker', name: '' });
    expect(parseModelSpec('worker')).toEqual({ kind: 'worker', name: '' });
    expect(parseModelSpec('anthropic:claude-sonnet-4-5')).toEqual({ kind: 'anthropic', name: 'claude-sonnet-4-5' });
    // Claude Code writes bare ids in config.json members (reference 2.1.109 snapshots: "claude-opus-4-6").
    expect(parseModelSpec('claude-opus-4-6')).toEqual({ kind: 'anthropic', name: 'claude-opus-4-6' });
    expect(parseModelSpec('command:codex exec -')).toEqual({ kind: 'command', name: 'codex exec -' });
    expect(parseModelSpec('openai:llama3.1:8b')).toEqual({ kind: 'openai', name: 'llama3.1:8b' });
  });

  it('refuses unknown kinds and missing names, saying what to write', () => {
    expect(() => parseModelSpec('gpt-4o')).toThrow(/Unknown model "gpt-4o": use kind:name with kind one of worker, scripted, command, anthropic, openai/);
    expect(() => parseModelSpec('claude')).toThrow(/Unknown model "claude"/);
    expect(() => parseModelSpec('anthropic')).toThrow(/needs a name after the colon, e.g. anthropic:claude-sonnet-4-5/);
  });

  it('loads a scripted model from a YAML file and replays its turns in order', async () => {
    const file = join(dir.path, 'turns.yaml');
    await writeFile(file, 'turns:\n  - toolCalls: [{name: TaskList}]\n  - text: all done\n');
    const model = await createModel(`scripted:${file}`);
    const request = { system: 's', messages: [], tools: [], signal: new AbortController().signal };
    expect(await model.call(request)).toEqual({ content: [{ type: 'tool_use', id: 'toolu_scripted_0_0', name: 'TaskList', input: {} }], stopReason: 'tool_use' });
    expect(await model.call(request)).toEqual({ content: [{ type: 'text', text: 'all done' }], stopReason: 'end_turn' });
    expect(await model.call(request)).toEqual({ content: [], stopReason: 'end_turn' });
    await expect(createModel(`scripted:${join(dir.path, 'missing.yaml')}`)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
