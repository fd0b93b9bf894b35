/**
 * `mailroom team spawn <name>`: register a teammate the way Claude Code does; `--prompt` becomes its
 * first inbox message from the lead.
 */
import type { Argv, CommandModule } from 'yargs';
import { emit } from '../output.js';
import { teamTarget, type GlobalArgs } from '../globals.js';

interface SpawnArgs extends GlobalArgs {
  name: string;
  type?: string;
  model?: string;
  prompt?: string;
  color?: string;
  backend?: string;
  cwd?: string;
  'plan-mode-required'?: boolean;
  approve?: string[];
  capability?: string[];
}

/** `team spawn`. */
export const teamSpawnCommand: CommandModule<GlobalArgs, SpawnArgs> = {
  command: 'spawn <name>',
  describe: 'Add a teammate to the team (agentId, color, backend …); --prompt is its first message',
  builder: (y) =>
    y
      .positional('name', { type: 'string', demandOption: true, describe: 'Teammate name (^[a-z0-9][a-z0-9-]{0,63}$)' })
      .option('type', { type: 'string', describe: 'Agent type, e.g. general-purpose' })
      .option('model', { type: 'string', describe: 'Model, kind:name (worker, anthropic:<model>, openai:<model>, command:<cmd>, scripted:<file>)' })
      .option('prompt', { type: 'string', describe: 'Spawn prompt, delivered as the first inbox message' })
      .option('color', { type: 'string', describe: 'Palette color (default: round-robin)' })
      .option('backend', { type: 'string', choices: ['in-process', 'process', 'tmux'], describe: 'in-process (default: registered, run by `mailroom run`/`mailroom agent`), process (also starts a detached `mailroom agent`) or tmux (starts `mailroom agent` in a new tmux window; records its pane)' })
      .option('cwd', { type: 'string', describe: 'Working directory (default: current)' })
      .option('plan-mode-required', { type: 'boolean', describe: 'Teammate needs plan approval before acting' })
      .option('approve', { type: 'string', array: true, choices: ['commands'], describe: "Side effects the lead must approve first (commands: each task command; answer with `mailroom approve`/`deny`)" })
      .option('capability', { type: 'string', array: true, describe: 'What it can do, e.g. csv,review (repeatable): tasks added with --requires and --to-capability sends go by it' })
      .example('$0 team spawn researcher --prompt "Find three papers on X"', 'Add teammate "researcher"')
      .example('$0 team spawn builder --backend process --model worker', 'Add a worker and start it as its own process')
      .example('$0 team spawn builder --backend tmux', 'Start it in a new tmux window of this session (or of session mailroom-<team>)')
      .example('$0 team spawn builder --backend process --approve commands', 'A worker that asks the lead before each task command') as Argv<SpawnArgs>,
  handler: async (a) => {
    const target = await teamTarget(a);
    const options = {
      ...target,
      name: a.name,
      type: a.type,
      model: a.model,
      prompt: a.prompt,
      color: a.color,
      backend: a.backend as 'in-process' | 'process' | 'tmux' | undefined,
      cwd: a.cwd,
      planModeRequired: a['plan-mode-required'],
      approve: a.approve as 'commands'[] | undefined,
      capabilities: a.capability,
    };
    if (a.backend === 'process') {
      const { spawnProcessTeammate } = await import('../../runtime/process/spawn.js');
      const started = await spawnProcessTeammate(options);
      const { member, process: proc } = started;
      emit(a.json, started, () => `Spawned ${member.name} (${member.agentId}, ${member.color}) as process ${proc.pid}; log: ${proc.logFile}`);
      return;
    }
    if (a.backend === 'tmux') {
      const { spawnTmuxTeammate } = await import('../../runtime/tmux/spawn.js');
      const started = await spawnTmuxTeammate(options);
      emit(a.json, started, () => `Spawned ${started.member.name} (${started.member.agentId}, ${started.member.color}) in tmux pane ${started.paneId} (session ${started.session}) as process ${started.pid}`);
      return;
    }
    const { spawnMember } = await import('../../core/members/spawn.js');
    const member = await spawnMember(options);
    emit(a.json, member, () => `Spawned ${member.name} (${member.agentId}, ${member.color}, ${options.backend ?? 'in-process'}) in team ${target.team}`);
  },
};
