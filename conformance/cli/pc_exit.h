/* pc_exit.h - plugcheck's exit codes, one enum (STYLE §D 24), documented
 * in `plugcheck --help`, README.md and docs/cli.md. */
#ifndef PC_EXIT_H
#define PC_EXIT_H

enum pc_exit {
	PC_EXIT_OK = 0,	       /* loaded / allowed / every check passed */
	PC_EXIT_FINDINGS = 1,  /* a finding of severity error, a denial, or a
				  failed call */
	PC_EXIT_USAGE = 2,     /* the command line is malformed */
	PC_EXIT_NOLOAD = 3,    /* the plugin could not be loaded at all */
	PC_EXIT_INTERNAL = 70, /* a bug or a system failure in plugcheck */
};

#endif
