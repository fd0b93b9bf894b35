/**
 * The bash completion script `mailroom completion bash` prints: yargs' own (yargs 18
 * `completionShTemplate`, lib/completion-templates.js) with one line added. bash splits the line
 * at COMP_WORDBREAKS, so after `--team=` the word under the cursor is `=` itself; yargs' script
 * filters the offered names by that word (`compgen -- "="`), which drops every name and leaves
 * bash's file names. An `=` word is taken as the empty word after it, as bash inserts a completion
 * there; `:` is not (after `redis:` the script would offer the commands, not a URL's rest).
 */

/** The bash script that asks `mailroom --get-yargs-completions …` on each TAB press. */
export const BASH_COMPLETION_SCRIPT = `###-begin-mailroom-completions-###
#
# mailroom command completion script (yargs' bash script; "=" as the word under the cursor
# completes the value after it, e.g. --team=<TAB>)
#
# Installation: mailroom completion bash >> ~/.bashrc
#    or mailroom completion bash >> ~/.bash_profile on OSX.
#
_mailroom_yargs_completions()
{
    local cur_word args type_list

    cur_word="\${COMP_WORDS[COMP_CWORD]}"
    [[ $cur_word == "=" ]] && cur_word=""
    args=("\${COMP_WORDS[@]}")

    # ask yargs to generate completions.
    # see https://stackoverflow.com/a/40944195/7080036 for the spaces-handling awk
    mapfile -t type_list < <(mailroom --get-yargs-completions "\${args[@]}")
    mapfile -t COMPREPLY < <(compgen -W "$( printf '%q ' "\${type_list[@]}" )" -- "\${cur_word}" |
        awk '/ / { print "\\""$0"\\"" } /^[^ ]+$/ { print $0 }')

    # if no match was found, fall back to filename completion
    if [ \${#COMPREPLY[@]} -eq 0 ]; then
      COMPREPLY=()
    fi

    return 0
}
complete -o bashdefault -o default -F _mailroom_yargs_completions mailroom
###-end-mailroom-completions-###
`;
