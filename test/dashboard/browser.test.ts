/**
 * The dashboard in a real browser (Debian's Chromium through playwright-core) against the real
 * CLI: the page loads and shows the roster; a message sent from the CLI appears without a reload;
 * the keyboard switches views; approving a request in the page lets the teammate's command run,
 * denying one sends the teammate the refusal and its reason and runs nothing; an action the policy
 * refuses shows the refusal and its rule; without the token the browser gets 401; a form on another
 * page posting to the dashboard is refused and acts on nothing. With $DASHBOARD_SCREENSHOTS set to
 * a directory, the views are saved there as PNGs (docs/dashboard/ is made that way).
 */
import { access, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import { startDashboardProcess, type DashboardProcess } from '../helpers/dashboard-process.js';
import { until } from '../helpers/runtime.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { mailroom, mailroomOk } from '../helpers/store-files.js';

let dir: TempDir;
let browser: Browser;
let dash: DashboardProcess;
let page: Page;
const shots = process.env.DASHBOARD_SCREENSHOTS;
const shot = async (name: string) => {
  if (shots) await page.screenshot({ path: join(shots, `${name}.png`) });
};

beforeAll(async () => {
  dir = await makeTempDir();
  const r = dir.path;
  await mailroomOk(r, 'team', 'create', 'demo', '--description', 'Dashboard test');
  await mailroomOk(r, 'team', 'spawn', 'alice', '--capability', 'review');
  await mailroomOk(r, 'team', 'spawn', 'bob');
  await mailroomOk(r, 'task', 'add', 'Collect sources');
  await mailroomOk(r, 'task', 'add', 'Draft the guide', '--blocked-by', '1');
  await mailroomOk(r, 'task', 'add', 'Review the draft', '--blocked-by', '2');
  browser = await launchBrowser();
  dash = await startDashboardProcess(r, ['demo']);
  page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.goto(dash.url);
}, 180_000);
afterAll(async () => {
  await mailroom(dir.path, 'team', 'stop', 'carol', '--force');
  await browser?.close();
  await dash?.stop();
  await dir?.cleanup();
});

it('loads the roster, and drops the token from the address bar', async () => {
  await page.getByRole('table', { name: 'Roster' }).waitFor();
  for (const name of ['team-lead', 'alice', 'bob']) await expect(page.locator(`tr[data-member="${name}"]`).count()).resolves.toBe(1);
  expect(page.url()).not.toContain('token=');
  await expect(page.locator('tr[data-member="alice"]').textContent()).resolves.toContain('review');
  await shot('roster');
}, 180_000);

it('shows a message sent from the CLI without a reload, and the keyboard switches views', async () => {
  const before = await page.evaluate(() => performance.timeOrigin);
  await page.keyboard.press('4');
  await expect(page.getByRole('tab', { name: /Messages/ }).getAttribute('aria-selected')).resolves.toBe('true');
  await mailroomOk(dir.path, 'team', 'send', 'alice', 'Start with the 2024 survey', '--summary', 'Where to start');
  await page.locator('ol.flow li', { hasText: 'Start with the 2024 survey' }).waitFor({ timeout: 10_000 });
  expect(await page.evaluate(() => performance.timeOrigin)).toBe(before); // the same page: no reload
  // ← and → move along the tabs once one has focus.
  await page.getByRole('tab', { name: /Messages/ }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('tab', { name: /Graph/ }).getAttribute('aria-selected')).resolves.toBe('true');
  await page.locator('svg.graph g.node').first().waitFor();
  await expect(page.locator('svg.graph g.node').count()).resolves.toBe(3);
  await expect(page.locator('svg.graph polyline.edge').count()).resolves.toBe(2);
  await shot('graph');
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('tab', { name: /Tasks/ }).getAttribute('aria-selected')).resolves.toBe('true');
  await expect(page.locator('tr[data-task="2"]').textContent()).resolves.toContain('blocked by #1');
  await shot('tasks');
}, 180_000);

it('adds a task and a dependency from the page', async () => {
  await page.keyboard.press('2');
  await page.locator('input[name=subject]').fill('Publish the site');
  await page.locator('input[name=blockedBy]').fill('3');
  await page.getByRole('button', { name: 'Add task' }).click();
  await page.locator('tr[data-task="4"]', { hasText: 'blocked by #3' }).waitFor({ timeout: 10_000 });
  const listed = JSON.parse((await mailroomOk(dir.path, 'task', 'list', '--json')).stdout) as { task: { id: string; blockedBy: string[] } }[];
  expect(listed.find((v) => v.task.id === '4')?.task.blockedBy).toEqual(['3']);
}, 180_000);

it('approving a request in the page lets the teammate\'s command run', async () => {
  const marker = join(dir.path, 'approved.txt');
  await mailroomOk(dir.path, 'task', 'add', 'Write the marker', '--metadata', `command=echo ok > ${marker}`);
  await mailroomOk(dir.path, 'team', 'spawn', 'carol', '--backend', 'process', '--model', 'worker', '--approve', 'commands', '--cwd', dir.path);
  await page.keyboard.press('5');
  const card = page.locator('ul.cards li', { hasText: 'carol' });
  await card.waitFor({ timeout: 30_000 });
  await expect(access(marker).then(() => true, () => false)).resolves.toBe(false);
  await shot('requests');
  await card.getByRole('button', { name: 'Approve' }).click();
  await page.locator('p.result.ok', { hasText: 'Approved' }).waitFor();
  await until(() => access(marker).then(() => true, () => false), 30_000, 'the approved command to run');
}, 180_000);

it('denying a request in the page sends the teammate the refusal with its reason, and its command does not run', async () => {
  const marker = join(dir.path, 'denied.txt');
  await mailroomOk(dir.path, 'task', 'add', 'Write the other marker', '--metadata', `command=echo no > ${marker}`);
  await page.keyboard.press('5');
  const card = page.locator('ul.cards li', { hasText: 'carol' });
  await card.waitFor({ timeout: 30_000 });
  await card.locator('input[name=reason]').fill('not on this machine');
  await card.getByRole('button', { name: 'Deny' }).click();
  await page.locator('p.result.ok', { hasText: /Denied .*the answer went to carol/ }).waitFor();
  await card.waitFor({ state: 'detached', timeout: 10_000 });
  // The answer carol got is the denial with its reason, journalled as every message is.
  await until(async () => /not on this machine/.test((await mailroomOk(dir.path, 'log', '--json')).stdout), 30_000, 'the denial to reach carol');
  await expect(access(marker).then(() => true, () => false)).resolves.toBe(false);
}, 180_000);

it('without its token the dashboard answers 401, in a browser that never had it', async () => {
  const fresh = await browser.newContext();
  try {
    const p = await fresh.newPage();
    const bare = new URL(dash.url);
    bare.searchParams.delete('token');
    for (const path of [bare.pathname + bare.search, '/api/state', '/api/events', '/assets/app.js']) {
      const res = await p.goto(new URL(path, bare).href);
      expect(res?.status(), path).toBe(401);
    }
    await expect(p.locator('body').textContent()).resolves.toContain('needs its token');
  } finally {
    await fresh.close();
  }
}, 180_000);

it('a form on another page that posts to the dashboard is refused and acts on nothing', async () => {
  // Another origin (same machine, another port: the browser sends it the dashboard's cookie, the harder case).
  const target = new URL('/api/action', dash.url).href;
  const body = JSON.stringify({ kind: 'send', to: 'alice', text: 'sent from another site' });
  const other: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<form id="f" method="POST" action="${target}" enctype="text/plain"><input type="hidden" name='${body.slice(0, -2)}' value='${body.slice(-2)}'></form><script>document.getElementById('f').submit()</script>`);
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  const context = await browser.newContext();
  try {
    const p = await context.newPage();
    await p.goto(dash.url); // the dashboard's cookie is now in this browser
    await p.getByRole('table', { name: 'Roster' }).waitFor();
    const answered = p.waitForResponse((r) => r.url() === target);
    await p.goto(`http://127.0.0.1:${(other.address() as AddressInfo).port}/`);
    const res = await answered;
    expect(res.status()).toBe(403);
    await expect(res.text()).resolves.toMatch(/needs the x-mailroom-token header/);
    await expect(mailroomOk(dir.path, 'log', '--json').then((r) => r.stdout)).resolves.not.toContain('sent from another site');
  } finally {
    await context.close();
    await new Promise((resolve) => other.close(resolve));
  }
}, 180_000);

it('an action the policy refuses shows the refusal and its rule', async () => {
  await mailroomOk(dir.path, 'team', 'policy', '--allow', 'message.bob=@lead');
  const asBob = await startDashboardProcess(dir.path, ['demo', '--as', 'bob']);
  const p = await browser.newPage();
  try {
    await p.goto(asBob.url);
    await p.getByRole('table', { name: 'Roster' }).waitFor();
    await p.keyboard.press('4');
    await p.locator('select[name=to]').selectOption('alice');
    await p.locator('input[name=text]').fill('around the policy');
    await p.getByRole('button', { name: 'Send' }).click();
    const refused = p.locator('p.result.refused');
    await refused.waitFor();
    await expect(refused.textContent()).resolves.toMatch(/NOT_PERMITTED \(rule policy\.message\.bob\): bob may not message alice/);
    // Nothing reached alice: not her inbox file, not the journal.
    await expect(readFile(join(dir.path, 'teams', 'demo', 'inboxes', 'alice.json'), 'utf8').catch(() => '')).resolves.not.toContain('around the policy');
    await expect(mailroomOk(dir.path, 'log', '--json').then((r) => r.stdout)).resolves.not.toMatch(/"kind":\s*"message"[^\n]*around the policy/);
  } finally {
    await p.close();
    await asBob.stop();
  }
}, 180_000);

/** `task add --json` → the new task's id. */
async function addTask(...args: string[]): Promise<string> {
  const out = JSON.parse((await mailroomOk(dir.path, 'task', 'add', ...args, '--json')).stdout) as { id?: string; task?: { id: string } };
  return out.id ?? out.task!.id;
}

it('a task\'s detail shows its claim history from the journal: owner, fencing token, how it ended', async () => {
  await mailroomOk(dir.path, 'team', 'stop', 'carol', '--force'); // no worker takes the tasks below
  const id = await addTask('Audit the links');
  await mailroomOk(dir.path, 'task', 'claim', id, '--as', 'alice');
  await mailroomOk(dir.path, 'task', 'update', id, '--owner', '', '--status', 'pending', '--as', 'alice');
  await mailroomOk(dir.path, 'task', 'claim', id, '--as', 'bob');
  await mailroomOk(dir.path, 'task', 'update', id, '--status', 'completed', '--as', 'bob');
  await page.keyboard.press('2');
  const row = page.locator(`tr[data-task="${id}"]`);
  await row.locator('.status-completed').waitFor({ timeout: 10_000 });
  await row.focus();
  await page.keyboard.press('Enter');
  const claims = row.getByRole('table', { name: 'Claim history' });
  await claims.locator('tr[data-claim="1"]', { hasText: 'completed' }).waitFor({ timeout: 10_000 });
  const cells = async (i: number) => (await claims.locator(`tr[data-claim="${i}"] td`).allTextContents()).map((t) => t.trim());
  // Tokens are issued from the store's clock (max(previous + 1, now in ms)): whole numbers that grow.
  const token = /^\d+$/;
  const first = await cells(0);
  const second = await cells(1);
  expect(first).toEqual(['alice', expect.stringMatching(token), expect.any(String), 'alice', expect.stringMatching(/^released /)]);
  expect(second).toEqual(['bob', expect.stringMatching(token), expect.any(String), 'bob', expect.stringMatching(/^completed /)]);
  expect(Number(second[1])).toBeGreaterThan(Number(first[1]));
  await shot('claims');
}, 180_000);

it('the Leases view shows who holds which paths until when, live', async () => {
  await page.keyboard.press('8');
  await page.getByText('No path leases.').waitFor();
  await mailroomOk(dir.path, 'lease', 'acquire', 'docs/**', '*.md', '--as', 'bob', '--reason', 'rewrite the guide', '--repo', dir.path);
  const row = page.locator('tr[data-lease]', { hasText: 'bob' });
  await row.waitFor({ timeout: 10_000 });
  await expect(row.textContent()).resolves.toMatch(/docs\/\*\*.*\*\.md.*exclusive.*rewrite the guide/);
  await expect(page.getByRole('tab', { name: /Leases \(1\)/ }).count()).resolves.toBe(1);
  await shot('leases');
  await mailroomOk(dir.path, 'lease', 'release', '--all', '--as', 'bob');
  await page.getByText('No path leases.').waitFor({ timeout: 10_000 });
}, 180_000);

it('hostile text (HTML, script, event handlers) in a subject, a message and a lease renders as text and runs nothing', async () => {
  const hostile = '<img src=x onerror="window.__pwned=1;alert(1)"><script>window.__pwned=2</script><b>bold</b>';
  const dialogs: string[] = [];
  page.on('dialog', (d) => { dialogs.push(d.message()); void d.dismiss(); });
  const id = await addTask(hostile, '--description', hostile);
  await mailroomOk(dir.path, 'team', 'send', 'alice', hostile, '--summary', hostile);
  await mailroomOk(dir.path, 'lease', 'acquire', 'src/**', '--as', 'alice', '--reason', hostile, '--repo', dir.path);
  const inert = async () => {
    await expect(page.locator('.view img, .view script, .view b').count()).resolves.toBe(0);
    await expect(page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).resolves.toBeUndefined();
  };
  await page.keyboard.press('2');
  const row = page.locator(`tr[data-task="${id}"]`);
  await row.waitFor({ timeout: 10_000 });
  await row.click();
  await expect(row.textContent()).resolves.toContain('<script>window.__pwned=2</script>');
  await inert();
  await page.keyboard.press('3');
  await page.locator(`svg.graph g[data-task="${id}"]`).waitFor();
  await inert();
  await page.keyboard.press('4');
  await page.locator('ol.flow li', { hasText: '<img src=x onerror=' }).waitFor({ timeout: 10_000 });
  await inert();
  await page.keyboard.press('7');
  await page.locator('ol.timeline li', { hasText: '<b>bold</b>' }).first().waitFor({ timeout: 10_000 });
  await inert();
  await page.keyboard.press('8');
  await page.locator('tr[data-lease]', { hasText: '<script>' }).waitFor({ timeout: 10_000 });
  await inert();
  expect(dialogs).toEqual([]);
}, 180_000);

it('a hostile name and color written into config.json by hand render as text, and the color adds no CSS', async () => {
  // Claude Code (or anyone who can write the file) keeps any string: the swatch's color once went
  // into its style as is, so "red;position:fixed;…" laid a span over the whole page.
  const configPath = join(dir.path, 'teams', 'demo', 'config.json');
  const config = JSON.parse(await readFile(configPath, 'utf8')) as { members: Array<Record<string, unknown>> };
  const name = '<img src=x onerror="window.__pwned=3">';
  const color = 'red;position:fixed;top:0;left:0;width:100vw;height:100vh;z-index:9999';
  config.members.push({ ...config.members[1], name, agentId: `${name}@demo`, color });
  await writeFile(configPath, JSON.stringify(config, null, 2));
  await page.keyboard.press('1');
  const row = page.locator('table[aria-label="Roster"] tbody tr', { hasText: '<img src=x onerror=' });
  await row.waitFor({ timeout: 10_000 });
  await expect(page.locator('.view img').count()).resolves.toBe(0);
  await expect(page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).resolves.toBeUndefined();
  type Styled = { style: { background: string }; getBoundingClientRect(): { width: number } };
  const swatch = await row.locator('.swatch').evaluate((el) => {
    const computed = (globalThis as unknown as { getComputedStyle(e: unknown): { position: string } }).getComputedStyle(el);
    const e = el as unknown as Styled;
    return { position: computed.position, width: e.getBoundingClientRect().width, background: e.style.background };
  });
  expect(swatch.position).not.toBe('fixed');
  expect(swatch.width).toBeLessThan(100);
  expect(swatch.background).toBe('');
  // A palette color still colors its swatch.
  await expect(page.locator('tr[data-member="alice"] .swatch').evaluate((el) => (el as unknown as Styled).style.background)).resolves.toBe('blue');
}, 180_000);
