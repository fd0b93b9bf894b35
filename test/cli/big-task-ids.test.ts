/**
 * Task ids are decimal strings of any length (reference §5): ids past 2^53 are counted exactly,
 * so a large `.highwatermark` never makes two adds share an id (the second overwrote the first)
 * nor produces a file name like `1e+21.json` that no listing finds.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { listFiles, mailroomOk, readJson } from '../helpers/store-files.js';

let dir: TempDir;
let root: string;
const taskDir = () => join(root, 'tasks/demo');

beforeEach(async () => {
  dir = await makeTempDir();
  root = dir.path;
  await mailroomOk(root, 'team', 'create', 'demo');
});
afterEach(() => dir.cleanup());

describe('task ids beyond Number.MAX_SAFE_INTEGER', () => {
  it('two adds after .highwatermark 9007199254740993 get two new ids, both kept', async () => {
    await writeFile(join(taskDir(), '.highwatermark'), '9007199254740993');
    await mailroomOk(root, 'task', 'add', 'first');
    await mailroomOk(root, 'task', 'add', 'second');
    expect((await listFiles(taskDir())).filter((f) => f.endsWith('.json'))).toEqual(['9007199254740994.json', '9007199254740995.json']);
    expect(await readJson(join(taskDir(), '9007199254740995.json'))).toMatchObject({ id: '9007199254740995', subject: 'second' });
  });

  it('an add after a 21-digit .highwatermark writes a decimal file name the listing shows', async () => {
    await writeFile(join(taskDir(), '.highwatermark'), '999999999999999999999');
    const add = await mailroomOk(root, 'task', 'add', 'big', '--json');
    expect((JSON.parse(add.stdout) as { id: string }).id).toBe('1000000000000000000000');
    const list = JSON.parse((await mailroomOk(root, 'task', 'list', '--json')).stdout) as { task: { id: string } }[];
    expect(list.map((v) => v.task.id)).toEqual(['1000000000000000000000']);
  });

  it('list order, show and delete use the exact id; delete raises .highwatermark to it', async () => {
    const big = '9007199254740993';
    await writeFile(join(taskDir(), `${big}.json`), JSON.stringify({ id: big, subject: 'big', description: '', status: 'pending', blocks: [], blockedBy: [] }, null, 2));
    await mailroomOk(root, 'task', 'add', 'next');
    const list = JSON.parse((await mailroomOk(root, 'task', 'list', '--json')).stdout) as { task: { id: string } }[];
    expect(list.map((v) => v.task.id)).toEqual([big, '9007199254740994']);
    await mailroomOk(root, 'task', 'show', big);
    await mailroomOk(root, 'task', 'delete', '9007199254740994');
    await mailroomOk(root, 'task', 'delete', big);
    expect(await readFile(join(taskDir(), '.highwatermark'), 'utf8')).toBe('9007199254740994');
  });
});
