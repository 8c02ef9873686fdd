/**
 * `ovnk completion bash|zsh|fish`: a shell completion script made from the command tree itself
 * (commands, their options, and what follows an option: a file, one of the `-o` formats, or free
 * text), so it cannot fall behind a new command or flag. zsh runs the bash script through its
 * bashcompinit, as kubectl's and many other CLIs' zsh completions do.
 */
import { Argument, type Command, type Option } from 'commander';
import { CliError, ExitCode, runCommand } from '../contract';
import { allCommands, commandPath } from '../examples';

export const shells = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof shells)[number];

/** What follows an option: a file name, one of some words, free text, or nothing (a switch). */
type Value = { kind: 'file' } | { kind: 'words'; words: string[] } | { kind: 'free' } | { kind: 'none' };

const formatWords = /\b(text|json|yaml|svg|png|dot)\b/g;

function valueOf(option: Option): Value {
  if (!option.required) return { kind: 'none' }; // a switch, or `--lab [name]` whose value is optional
  if (/<file>/.test(option.flags)) return { kind: 'file' };
  if (option.long === '--output') return { kind: 'words', words: [...new Set(option.description.match(formatWords))] };
  return { kind: 'free' };
}

interface Entry {
  path: string;
  command: Command;
  options: readonly Option[];
}

/** Every command with the options it accepts: its own, the program's (global), and --help. */
function entries(program: Command): Entry[] {
  return allCommands(program).map((command) => ({
    path: commandPath(command),
    command,
    // --version is the program's alone; its other options (--quiet) are understood everywhere
    options: command === program ? command.options : [...command.options, ...globals(program)],
  }));
}

const globals = (program: Command) => program.options.filter((o) => o.long !== '--version');
const names = (o: Option) => [o.short, o.long].filter((n): n is string => n !== undefined);
const single = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function registerCompletion(program: Command): void {
  program
    .command('completion')
    .description('Print the shell completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', shells.join(', ')))
    .action(async (shell: string) => {
      process.exitCode = await runCommand('text', async () => {
        if (!(shells as readonly string[]).includes(shell))
          throw new CliError(ExitCode.badInput, `unknown shell "${shell}": use ${shells.join(', ')}`, {
            path: 'shell',
          });
        const script = completionScript(program, shell as Shell);
        return { document: { ok: true, shell, script }, text: script };
      });
    });
}

export function completionScript(program: Command, shell: Shell): string {
  if (shell === 'fish') return fishScript(program);
  const bash = bashScript(program);
  if (shell === 'bash') return bash;
  return [
    '# ovnk completion for zsh: source <(ovnk completion zsh)',
    'autoload -U +X bashcompinit && bashcompinit',
    bash,
  ].join('\n');
}

function bashScript(program: Command): string {
  const all = entries(program);
  const commands = all.map(
    (e) => `    ${single(e.path)}) echo ${single(e.command.commands.map((c) => c.name()).join(' '))} ;;`,
  );
  const options = all.map(
    (e) => `    ${single(e.path)}) echo ${single([...e.options.flatMap(names), '--help'].join(' '))} ;;`,
  );
  const values = all.flatMap((e) =>
    e.options.flatMap((o) => {
      const v = valueOf(o);
      const said =
        v.kind === 'file' ? '@file' : v.kind === 'free' ? '@free' : v.kind === 'words' ? v.words.join(' ') : '';
      return said ? names(o).map((n) => `    ${single(`${e.path}|${n}`)}) echo ${single(said)} ;;`) : [];
    }),
  );
  return `# ovnk completion for bash: source <(ovnk completion bash)
_ovnk_commands() {
  case "$1" in
${commands.join('\n')}
  esac
}
_ovnk_options() {
  case "$1" in
${options.join('\n')}
  esac
}
_ovnk_values() {
  case "$1|$2" in
${values.join('\n')}
  esac
}
_ovnk() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" path='' word i values
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    case " $(_ovnk_commands "$path") " in *" $word "*) path="\${path:+$path }$word" ;; esac
  done
  if [[ "$prev" == -* ]]; then
    values="$(_ovnk_values "$path" "$prev")"
    case "$values" in
      @file) COMPREPLY=($(compgen -f -- "$cur")); return ;;
      @free) COMPREPLY=(); return ;;
      ?*) COMPREPLY=($(compgen -W "$values" -- "$cur")); return ;;
    esac
  fi
  COMPREPLY=($(compgen -W "$(_ovnk_commands "$path") $(_ovnk_options "$path")" -- "$cur"))
}
complete -o default -F _ovnk ovnk
`;
}

function fishScript(program: Command): string {
  const all = entries(program);
  const paths = all.filter((e) => e.path !== '').map((e) => single(e.path));
  const lines = [
    '# ovnk completion for fish: ovnk completion fish > ~/.config/fish/completions/ovnk.fish',
    'function __ovnk_path',
    `    set -l known ${paths.join(' ')}`,
    "    set -l path ''",
    '    for word in (commandline -opc)[2..-1]',
    '        set -l next (string trim -- "$path $word")',
    '        if contains -- $next $known',
    '            set path $next',
    '        end',
    '    end',
    '    echo $path',
    'end',
    'function __ovnk_at',
    '    set -l path (__ovnk_path)',
    '    test "$path" = "$argv[1]"',
    'end',
    'complete -c ovnk -f',
  ];
  for (const e of all) {
    const at = `-n "__ovnk_at ${single(e.path)}"`;
    for (const c of e.command.commands)
      lines.push(`complete -c ovnk ${at} -a ${single(c.name())} -d ${single(c.description().split(/[.:;]/)[0]!)}`);
    for (const o of e.options) lines.push(`complete -c ovnk ${at} ${fishOption(o)}`);
  }
  return `${lines.join('\n')}\n`;
}

function fishOption(o: Option): string {
  const flags = [o.short ? `-s ${o.short.slice(1)}` : '', o.long ? `-l ${o.long.slice(2)}` : ''].filter(Boolean);
  const v = valueOf(o);
  const value =
    v.kind === 'file'
      ? '-r -F'
      : v.kind === 'words'
        ? `-x -a ${single(v.words.join(' '))}`
        : v.kind === 'free'
          ? '-x'
          : '';
  return [...flags, value, `-d ${single(o.description.split(/[.:;(]/)[0]!.trim())}`].filter(Boolean).join(' ');
}
