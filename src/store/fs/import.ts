/**
 * Bulk import of a whole team ({@link TeamStore.importTeam}, for `mailroom store copy`) into
 * Claude Code's layout: task files with their ids, `.highwatermark`, inbox files as given (order,
 * timestamps, read state), the inbox archive, member records and the journal — all written under
 * the team's config lock, `config.json` last. The team exists only once its config does, so a
 * failed import removes what it wrote and a reader never sees half a team; an importer killed
 * before the config is written leaves files of no team, which a later import refuses to overwrite
 * (TEAM_EXISTS naming them) and `mailroom doctor` reports (a task list of no team).
 */
import { readdir, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { MailroomError, fileWriteError, isErrno } from '../../errors.js';
import { checkTeamImage } from '../../domain/team-image.js';
import { canonicalTask } from '../../protocol/task.js';
import type { TeamConfig } from '../../protocol/config.js';
import { writeFileAtomic } from './atomic-write.js';
import { formatJson, writeJsonFile, FILE_MODE } from './json-file.js';
import type { OpContext, TeamImage, Transition } from '../team-store.js';
import { ensureDir, exists, locked, type FsContext } from './context.js';
import { appendLines } from './journal.js';

/** Imports `image` as a new team. @throws TEAM_EXISTS, INVALID_ARGUMENT, FILE_ACCESS (then nothing of the team is left) */
export async function importTeam(ctx: FsContext, image: TeamImage, _op?: OpContext): Promise<Transition<TeamConfig>> {
  checkTeamImage(image);
  const { layout } = ctx;
  const team = image.config.name;
  const configPath = layout.configPath(team);
  await ensureDir(layout.teamDir(team));
  return locked(ctx, configPath, async (lock) => {
    const leftover = await leftoverOf(ctx, image);
    if (leftover !== undefined) throw teamThere(ctx, team, leftover);
    const written: string[] = [];
    const write = async (path: string, text: string) => {
      await ensureDir(dirname(path));
      await writeFileAtomic(path, text, { exclusive: true });
      written.push(path);
    };
    try {
      for (const task of image.tasks) await write(layout.taskPath(team, task.id), formatJson(canonicalTask(task, Object.keys(task))));
      if (image.highWatermark !== '0') await write(layout.highWatermarkPath(team), image.highWatermark);
      for (const inbox of image.inboxes) {
        await write(layout.inboxPath(team, inbox.name), formatJson(inbox.entries));
        if (inbox.archived.length > 0) await write(layout.inboxArchivePath(team, inbox.name), inbox.archived.map((e) => `${JSON.stringify(e)}\n`).join(''));
      }
      for (const record of image.memberRecords) {
        await ensureDir(layout.memberRecordDir(team));
        await writeJsonFile(layout.memberRecordPath(team, record.name), record);
        written.push(layout.memberRecordPath(team, record.name));
      }
      if (image.events.length > 0) {
        const journalExisted = await exists(layout.journalPath(team));
        await appendLines(ctx, team, image.events);
        if (!journalExisted) written.push(layout.journalPath(team));
      }
      await ensureDir(layout.taskDir(team));
      await writeFile(layout.listLockAnchor(team), '', { flag: 'a', mode: FILE_MODE }).catch((err: unknown) => {
        throw fileWriteError(layout.listLockAnchor(team), err);
      });
      await writeJsonFile(configPath, image.config, lock, { exclusive: true });
    } catch (err) {
      for (const path of written.reverse()) await rm(path, { force: true }).catch(() => undefined);
      throw err;
    }
    return { value: image.config, events: [] };
  });
}

/** The first file of the team's data that is already there (config, inbox, task, mark, archive), or undefined. */
async function leftoverOf(ctx: FsContext, image: TeamImage): Promise<string | undefined> {
  const { layout } = ctx;
  const team = image.config.name;
  if (await exists(layout.configPath(team))) return layout.configPath(team);
  for (const dir of [layout.inboxDir(team), layout.taskDir(team)]) {
    const names = await readdir(dir).catch((err: unknown) => (isErrno(err, 'ENOENT') ? [] : Promise.reject(err)));
    const data = names.find((n) => n.endsWith('.json') || n === '.highwatermark');
    if (data !== undefined) return `${dir}/${data}`;
  }
  for (const inbox of image.inboxes) if (await exists(layout.inboxArchivePath(team, inbox.name))) return layout.inboxArchivePath(team, inbox.name);
  return undefined;
}

function teamThere(ctx: FsContext, team: string, path: string): MailroomError {
  const config = path === ctx.layout.configPath(team);
  const why = config ? `Team "${team}" already exists in ${ctx.layout.root}` : `Files of a team "${team}" are already in ${ctx.layout.root} (${path}), though it has no config.json`;
  return new MailroomError('TEAM_EXISTS', `${why}: the copy writes nothing over ${config ? 'it' : 'them'}. Copy to another store or name, or delete the team first (\`mailroom team delete ${team}\`${config ? '' : ', or move those files aside'}).`, {
    details: { team, path },
  });
}
