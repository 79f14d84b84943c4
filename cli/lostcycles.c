/*
 * lostcycles.c — the lostcycles command: dispatch to a subcommand, git-style.
 */
#include "lc_cmd.h"
#include "lc_opt.h"
#include "session.h"

#include <err.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>

/* The subcommands (LC_COMMANDS of lc_cmd.h). */
#define COMMAND_ROW(n, s) { #n, lc_cmd_##n, s },
static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} commands[] = { LC_COMMANDS(COMMAND_ROW) };
#undef COMMAND_ROW

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

/* The bash completion: subcommands from --list-commands, their options
 * and argument kinds from "lostcycles SUB --list-opts" (the option tables),
 * asked when completing, so that it follows the installed program.  An
 * option's value is completed after a space or after "=" (which bash
 * makes words of their own: "--format" "=" "j"); files, directories,
 * profiles (*.data and directories, also the operands of report, export
 * and merge) and the words of an enum.  zsh runs the same function through
 * bashcompinit (which numbers arrays from 0 for it, as bash does). */
static const char completion_bash[] =
	"_lostcycles_value()\n"
	"{\n"
	"\tcase $1 in\n"
	"\tfile) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$2\")) ;;\n"
	"\tdir) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- \"$2\")) ;;\n"
	"\tprofile) compopt -o filenames 2>/dev/null\n"
	"\t\tCOMPREPLY=($(compgen -f -X '!*.data' -- \"$2\") $(compgen -d -- \"$2\")) ;;\n"
	"\tenum:*) COMPREPLY=($(compgen -W \"$(echo \"${1#enum:}\" | tr '|' ' ')\" -- \"$2\")) ;;\n"
	"\t*) COMPREPLY=() ;;\n"
	"\tesac\n"
	"}\n"
	"_lostcycles()\n"
	"{\n"
	"\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	"\tlocal lc=${COMP_WORDS[0]} sub=${COMP_WORDS[1]} long short arg kind hide opt eq=\n"
	"\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n"
	"\t\tCOMPREPLY=($(compgen -W \"$(\"$lc\" --list-commands 2>/dev/null) --help "
	"--version --completion\" -- \"$cur\"))\n"
	"\t\treturn\n"
	"\tfi\n"
	"\tif [ \"$sub\" = help ] && [ \"$COMP_CWORD\" -eq 2 ]; then\n"
	"\t\tCOMPREPLY=($(compgen -W \"$(\"$lc\" --list-commands 2>/dev/null)\" -- \"$cur\"))\n"
	"\t\treturn\n"
	"\tfi\n"
	"\tif [[ $cur == --*=* ]]; then\t# no word break at '='\n"
	"\t\topt=${cur%%=*} eq=$opt= cur=${cur#*=}\n"
	"\telif [ \"$cur\" = = ]; then\n"
	"\t\topt=$prev eq== cur=\n"
	"\telif [ \"$prev\" = = ] && [ \"$COMP_CWORD\" -ge 3 ]; then\n"
	"\t\topt=${COMP_WORDS[COMP_CWORD-2]} eq==\n"
	"\telse\n"
	"\t\topt=$prev\n"
	"\tfi\n"
	"\twhile IFS=$'\\t' read -r long short arg kind hide; do\n"
	"\t\t[ \"$opt\" = \"$long\" ] || [ \"$opt\" = \"$short\" ] || continue\n"
	"\t\tcase $arg in -) break ;; \\[*) [ -n \"$eq\" ] || break ;; esac\n"
	"\t\t_lostcycles_value \"$kind\" \"$cur\"\n"
	"\t\t[[ $eq == --* ]] && COMPREPLY=(\"${COMPREPLY[@]/#/$eq}\")\n"
	"\t\treturn\n"
	"\tdone < <(\"$lc\" \"$sub\" --list-opts 2>/dev/null)\n"
	"\tif [ -n \"$eq\" ]; then\n"
	"\t\tCOMPREPLY=()\n"
	"\t\treturn\n"
	"\tfi\n"
	"\tif [[ $cur == -* ]]; then\n"
	"\t\tCOMPREPLY=($(compgen -W \"$(\"$lc\" \"$sub\" --list-opts 2>/dev/null |\n"
	"\t\t\tawk -F'\\t' '$5 != \"hidden\" { if ($1 != \"-\") print $1; "
	"if ($2 != \"-\") print $2 }')\" -- \"$cur\"))\n"
	"\t\treturn\n"
	"\tfi\n"
	"\tcase $sub in\n"
	"\treport | export | merge) _lostcycles_value profile \"$cur\" ;;\n"
	"\t*) _lostcycles_value file \"$cur\" ;;\n"
	"\tesac\n"
	"}\n"
	"complete -F _lostcycles lostcycles\n";

/* Print the usage text to f. */
static void usage(FILE *f)
{
	fprintf(f, "usage: lostcycles [--version] [--help] COMMAND [ARGS]\n\n"
		   "Tells why a parallel program does not speed up.\n\ncommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'lostcycles COMMAND --help' describes a command; "
		   "see also lostcycles(1).\n'lostcycles --completion bash' (or zsh) prints "
		   "the completion.\n");
}

/* The shells of --completion, and the head each script starts with. */
static const char *const shells[][2] = {
	{ "bash", "# bash completion for lostcycles (lostcycles --completion bash)\n"
		  "# shellcheck shell=bash\n" },
	{ "zsh", "# zsh completion for lostcycles (lostcycles --completion zsh): in\n"
		 "# ~/.zshrc, after compinit: eval \"$(lostcycles --completion zsh)\"\n"
		 "autoload -U +X bashcompinit && bashcompinit\n" },
};

/* --completion SHELL: the completion script of bash or zsh.  The exit
 * status. */
static int completion(int argc, char **argv)
{
	for (size_t i = 0; argc == 3 && i < sizeof(shells) / sizeof(shells[0]); i++)
		if (!strcmp(argv[2], shells[i][0])) {
			fputs(shells[i][1], stdout);
			fputs(completion_bash, stdout);
			return 0;
		}
	fprintf(stderr, "lostcycles: --completion takes one shell: bash or zsh\n");
	return 2;
}

/* The options of the tool itself (name: argv[1]): the exit status, or -1
 * when name is not one of them. */
static int tool_option(const char *name, int argc, char **argv)
{
	if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(name, "--list-commands")) {
		for (size_t i = 0; i < NCOMMANDS; i++)
			printf("%s\n", commands[i].name);
		return 0;
	}
	if (!strcmp(name, "--completion"))
		return completion(argc, argv);
	if (!strcmp(name, "--version")) {
		printf("lostcycles %s\n", LC_TOOL_VERSION);
		return 0;
	}
	return -1;
}

/* The command called name, or NULL. */
static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	return NULL;
}

/* The message for name, which is not a command, with the nearest command
 * or tool option: exit status 2. */
static int not_a_command(const char *name)
{
	const char *cands[NCOMMANDS + 4] = { "--help", "--version", "--completion",
					     "--list-commands" }, *near;

	for (size_t i = 0; i < NCOMMANDS; i++)
		cands[4 + i] = commands[i].name;
	near = lc_opt_nearest(name, cands, NCOMMANDS + 4);
	if (near)
		fprintf(stderr, "lostcycles: '%s' is not a command; did you mean '%s'? (see "
			"'lostcycles --help')\n", name, near);
	else
		fprintf(stderr, "lostcycles: '%s' is not a command; see 'lostcycles --help'\n",
			name);
	return 2;
}

/* Run the command cmd with argv[1..]: the exit status. */
static int run_command(const struct command *cmd, int argc, char **argv)
{
	static char prog[64];

	/* warnx(3) and friends then say "lostcycles NAME: ..." */
	snprintf(prog, sizeof(prog), "lostcycles %s", cmd->name);
	program_invocation_short_name = prog;
	return cmd->run(argc - 1, argv + 1);
}

/* --hold-perf PID (internal, lc_session_holder): hold the perf events a
 * session of process PID handed over until PID, our parent, exits (its
 * death signal ends us; no longer our parent: at once): their release,
 * which waits for the kernel, then delays no one.  Exit status 0. */
static int hold_perf(const char *parent)
{
	char *end;
	long pid = parent ? strtol(parent, &end, 10) : 0;

	while (pid > 0 && getppid() == (pid_t)pid)
		sleep(1);
	return 0;
}

/* "lostcycles help NAME": NAME's own --help, as "lostcycles NAME --help"
 * prints it. */
static int help_command(const char *name)
{
	const struct command *cmd = find_command(name);
	char *args[] = { "lostcycles", (char *)name, "--help", NULL };

	return cmd ? run_command(cmd, 3, args) : not_a_command(name);
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : NULL;
	const struct command *cmd;
	int rc;

	lc_preload_strip(argv);
	/* GSL's default handler aborts the process on a domain error; every
	 * GSL call here checks its result (NaN or a status) instead. */
	gsl_set_error_handler_off();
	if (!name) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(name, "--hold-perf"))
		return hold_perf(argc > 2 ? argv[2] : NULL);
	lc_session_holder = "/proc/self/exe";
	if (!strcmp(name, "help") && argc > 2)
		return help_command(argv[2]);
	if ((rc = tool_option(name, argc, argv)) >= 0)
		return rc;
	if ((cmd = find_command(name)))
		return run_command(cmd, argc, argv);
	return not_a_command(name);
}
