// Package scenariotest is the one harness of the repository's test files:
// it runs data-driven test files, the shape of
// github.com/cockroachdb/datadriven fitted to this repository's scenario
// files: a file of commands, one a line, each followed by the lines it
// must output.
//
//	# a comment
//	1.0 press white          a command
//	> move 1 e4              an expected output line, marked by Syntax.Expect
//	> alert flag first ~ 1:30   " ~ text": the output's full form must contain text
//
// [Parse] reads a file into [Command]s, [Run] calls a callback per command
// and compares what it returns with the expected lines, failing the test
// with the file and line of the first difference. A command may also carry
// its expectations inline ("read first 1m main=30s"): the callback then
// passes [Command.Check] the text the command should have had.
//
// With the -rewrite test flag, Run writes what the commands really produced
// back into the file in place of the expectations that differ, keeping
// comments, blank lines and the expectations that still hold.
//
// [Read] reads a file of the same shape without running it, for a test
// that walks a table itself (published data). [Golden] compares a test's
// output with a golden file, which -rewrite writes instead; [Rewriting]
// tells a test whose golden file comes from elsewhere (a reference
// implementation, a recording) to make it again. -rewrite is the one flag
// that rewrites what the tests expect, in every package.
//
// Only the reading, comparing and rewriting live here; each package's
// commands (its DSL) stay in its own test.
package scenariotest
