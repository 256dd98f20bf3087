package main

import (
	"bytes"
	"strings"
	"testing"
)

// runSplit runs a command in-process with separate standard output and error.
func runSplit(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err = run(t.Context(), args, func(string) string { return "" }, strings.NewReader(""), &out, &errOut)
	return out.String(), errOut.String(), err
}

// Asking a command for help succeeds: its usage line and an example go to standard output and
// the exit status is 0, for every command.
func TestHelpExitsZero(t *testing.T) {
	t.Parallel()
	var cases [][]string
	for name := range commands() {
		cases = append(cases, []string{name, "-h"}, []string{name, "--help"}, []string{"help", name})
	}
	cases = append(cases, []string{"hooks", "push", "-h"}, []string{"hooks", "list", "--help"})
	for _, args := range cases {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Parallel()
			stdout, stderr, err := runSplit(t, args...)
			if err != nil {
				t.Fatalf("err = %v, want nil (exit 0)\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
			}
			name := args[0]
			if name == "help" {
				name = args[1]
			}
			if !strings.Contains(stdout, "usage: cms "+name) || !strings.Contains(stdout, "example:\n  cms "+name) {
				t.Errorf("stdout has no usage line and example for %s:\n%s", name, stdout)
			}
			if strings.Contains(stdout+stderr, "help requested") {
				t.Errorf("help is reported as an error:\n%s%s", stdout, stderr)
			}
		})
	}
}

// A flag the command does not know is a usage error: the message and the usage go to standard
// error and the exit status is 2.
func TestUnknownFlagExitsTwo(t *testing.T) {
	t.Parallel()
	for name := range commands() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			stdout, stderr, err := runSplit(t, name, "--no-such-flag")
			if code, ok := err.(exitError); !ok || code != 2 {
				t.Errorf("err = %v, want exit status 2", err)
			}
			if !strings.Contains(stderr, "flag provided but not defined: -no-such-flag") || !strings.Contains(stderr, "usage: cms "+name) {
				t.Errorf("stderr:\n%s", stderr)
			}
			if stdout != "" {
				t.Errorf("stdout = %q, want nothing", stdout)
			}
		})
	}
}

// A command with subcommands names each of them in the overview and in its help, so `cms cache
// warm` is found without reading the README, and `cms cache warm -h` does not call itself clear.
func TestHelpNamesEverySubcommand(t *testing.T) {
	t.Parallel()
	overview, _, _ := runSplit(t, "help")
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"cache", "-h"}, []string{"cms cache clear", "cms cache warm", "--concurrency N"}},
		{[]string{"cache", "warm", "-h"}, []string{"cms cache warm", "-concurrency", "-handle"}},
		{[]string{"token", "-h"}, []string{"cms token create", "cms token list", "cms token revoke"}},
		{[]string{"git", "-h"}, []string{"status|sync|retry"}},
	} {
		stdout, stderr, err := runSplit(t, c.args...)
		if err != nil {
			t.Errorf("%v: %v\n%s", c.args, err, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(stdout, w) {
				t.Errorf("cms %s does not mention %q:\n%s", strings.Join(c.args, " "), w, stdout)
			}
		}
	}
	if !strings.Contains(overview, "warm") {
		t.Errorf("the command overview does not say cache can warm:\n%s", overview)
	}
}
