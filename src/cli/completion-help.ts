/**
 * `mailroom completion --help`. yargs' built-in completion command prints its script for any
 * arguments, `--help` included, so the CLI answers `--help` itself, with the same parts and the same
 * example shape as every other command's help (src/cli/help-examples.ts: a `# what it does` line,
 * then the whole command).
 */

/** The help text of `mailroom completion`, ending with a newline. */
export const COMPLETION_HELP = `mailroom completion [bash|zsh]

Print a shell completion script (TAB completes commands, options, team and member names). Without
a shell named: zsh when $SHELL says zsh, else bash.

Positionals:
  shell  bash or zsh

Examples:
  # Tab completion in this shell (bash)
  source <(mailroom completion bash)
  # Tab completion in every new bash
  mailroom completion bash >> ~/.bashrc
  # Tab completion in every new zsh
  mailroom completion zsh >> ~/.zshrc
`;
