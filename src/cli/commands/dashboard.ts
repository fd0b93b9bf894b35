/**
 * `mailroom dashboard [team]`: the team in a browser (src/dashboard/). Serves the page on
 * 127.0.0.1 (a free port unless --port) and prints its URL, which carries the random token every
 * request must present; runs until Ctrl-C. The page acts as the lead, or as `--as`.
 */
import type { Argv, CommandModule } from 'yargs';
import { MailroomError } from '../../errors.js';
import { teamTarget, type GlobalArgs } from '../globals.js';
import { emit, writeStderr } from '../output.js';

interface DashboardArgs extends GlobalArgs {
  port?: number;
  host?: string;
  open?: boolean;
  as?: string;
}

/** `dashboard`. */
export const dashboardCommand: CommandModule<GlobalArgs, DashboardArgs> = {
  command: 'dashboard [team]',
  describe: 'The team in a browser: roster, task graph, messages, requests, dead letters, journal — live',
  builder: (y) =>
    y
      .positional('team', { type: 'string', describe: 'Team shown first (default: --team, $MAILROOM_TEAM, or the only team)' })
      .option('port', { type: 'number', describe: 'Port to serve on (default: a free one)' })
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'Interface to bind; anything but loopback exposes the page to the network (the token is still required)' })
      .option('open', { type: 'boolean', describe: 'Open the page in the default browser (xdg-open / open)' })
      .option('as', { type: 'string', describe: 'Who the page acts as (default: the lead); the team policy binds this member' })
      .example('$0 dashboard demo', 'Serve team "demo" on 127.0.0.1 and print the URL to open')
      .example('$0 dashboard --store redis://10.0.0.5:6379/0 demo --open', 'The team across machines, opened in the browser')
      .example('$0 dashboard --host 0.0.0.0 --port 8080', 'Reachable from other machines (the URL\'s token is required)') as Argv<DashboardArgs>,
  handler: async (a) => {
    if (a.port !== undefined && (!Number.isInteger(a.port) || a.port < 0 || a.port > 65_535)) throw new MailroomError('USAGE', `--port ${String(a.port)} is not a port: give 1–65535, or leave it out for a free one.`);
    const target = await teamTarget(a);
    const { startDashboard } = await import('../../dashboard/server.js');
    const { isLoopback } = await import('../../dashboard/auth.js');
    const { storeLabel } = await import('../../dashboard/label.js');
    const host = a.host ?? '127.0.0.1';
    // Listening for SIGINT/SIGTERM before the URL is printed: stopped the moment it is read, the
    // dashboard closes cleanly instead of dying by the signal.
    const stopped = new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    const d = await startDashboard({ stores: target.root, team: target.team, host, port: a.port, as: a.as, storeLabel: storeLabel(target.root.selection) });
    if (!isLoopback(host)) writeStderr(`mailroom dashboard: listening on ${host}, reachable from other machines. Every request must present the URL's token; share it only with your team, and prefer an SSH tunnel to 127.0.0.1.\n`);
    emit(a.json, { url: d.url, port: d.port, team: target.team }, () => [`mailroom dashboard: team ${target.team} at ${d.url}`, '(Ctrl-C stops it.)']);
    if (a.open) {
      const { spawn } = await import('node:child_process');
      const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
      spawn(opener, [d.url], { stdio: 'ignore', detached: true }).on('error', () => writeStderr(`mailroom dashboard: could not run ${opener}; open the URL yourself.\n`)).unref();
    }
    await stopped;
    await d.close();
    await target.root.close();
  },
};
