/**
 * `mailroom team rekey` and `mailroom team unsign`: the lead's acts on a signed team's keys
 * (docs/approvals.md "Signed teams"). Both need the lead's private key on this machine.
 */
import type { Argv, CommandModule } from 'yargs';
import { emit } from '../output.js';
import { teamTarget, type GlobalArgs } from '../globals.js';

interface RekeyArgs extends GlobalArgs {
  member?: string;
}

/** `team rekey [--member <name>]`. */
export const teamRekeyCommand: CommandModule<GlobalArgs, RekeyArgs> = {
  command: 'rekey',
  describe: "Signed team: a new lead key (every member re-endorsed), or --member: a new key for a teammate that runs here",
  builder: (y) =>
    y
      .option('member', { type: 'string', describe: 'Make a new key pair for this teammate on this machine (its old one is gone), endorsed by the lead' })
      .example('$0 team rekey', "Rotate the lead's key; old signatures stay verifiable")
      .example('$0 team rekey --member bob', "bob's private key was lost: give it a new one here") as Argv<RekeyArgs>,
  handler: async (a) => {
    const target = await teamTarget(a);
    const { rekeyTeam } = await import('../../core/trust/identity.js');
    const done = await rekeyTeam({ ...target, ...(a.member !== undefined ? { member: a.member } : {}) });
    emit(a.json, done, () =>
      done.memberKeyId !== undefined
        ? `New key ${done.memberKeyId} for ${done.endorsed[0]}, endorsed by lead key ${done.keyId}`
        : `New lead key ${done.keyId}${done.previousKeyId ? ` (after ${done.previousKeyId})` : ''}; re-endorsed: ${done.endorsed.join(', ') || '(no teammates)'}`,
    );
  },
};

/** `team unsign`. */
export const teamUnsignCommand: CommandModule<GlobalArgs, GlobalArgs> = {
  command: 'unsign',
  describe: 'Signed team: sign it off (a statement signed by the lead; deleting settings does not do this)',
  builder: (y) => y.example('$0 team unsign', 'Make the team open again, as the lead') as Argv<GlobalArgs>,
  handler: async (a) => {
    const target = await teamTarget(a);
    const { unsignTeam } = await import('../../core/trust/identity.js');
    const done = await unsignTeam(target);
    emit(a.json, done, () => `Team ${target.team} is signed off (lead key ${done.keyId}): open from now on`);
  },
};

interface EndorseArgs extends GlobalArgs {
  member: string;
}

/** `team endorse <member>`. */
export const teamEndorseCommand: CommandModule<GlobalArgs, EndorseArgs> = {
  command: 'endorse <member>',
  describe: "Signed team: endorse a teammate's key made on another machine (run where the lead's key is)",
  builder: (y) =>
    y
      .positional('member', { type: 'string', demandOption: true, describe: 'The teammate whose pending key to endorse' })
      .example('$0 team endorse bob', 'bob was spawned on another machine: its messages verify from now on') as Argv<EndorseArgs>,
  handler: async (a) => {
    const target = await teamTarget(a);
    const { endorseMember } = await import('../../core/trust/identity.js');
    const done = await endorseMember({ ...target, member: a.member });
    emit(a.json, done, () => `Endorsed ${done.member}'s key ${done.keyId} with lead key ${done.leadKeyId}`);
  },
};
