// Command cms is the flat-file content management service: `cms serve` runs every endpoint
// group on one local server, `cms check` validates a site, and further commands manage users
// and hooks. `make dev` runs it on the embedded starter site.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"

	"cms/content"
)

// version is set at link time (-ldflags "-X main.version=...").
var version = "dev"

func main() {
	ctx, stop := shutdownOnSignal(context.Background(), os.Stderr, os.Exit, os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		var ee exitError
		if errors.As(err, &ee) {
			os.Exit(int(ee))
		}
		fmt.Fprintln(os.Stderr, "cms:", cliMessage(err))
		os.Exit(1)
	}
}

// shutdownOnSignal returns a context cancelled by the first of sigs, which starts a clean
// shutdown. A second one while that shutdown runs (a stuck request, a hook that will not stop)
// ends the process at once through exit(130), saying so on stderr: signal.NotifyContext alone
// keeps catching the signal after the first and so swallows every further Ctrl-C.
func shutdownOnSignal(parent context.Context, stderr io.Writer, exit func(int), sigs ...os.Signal) (context.Context, func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, sigs...)
	ctx, stop := watchSignals(parent, ch, stderr, exit)
	return ctx, func() { signal.Stop(ch); stop() }
}

// watchSignals is shutdownOnSignal on a channel of signals.
func watchSignals(parent context.Context, sigs <-chan os.Signal, stderr io.Writer, exit func(int)) (context.Context, func()) {
	ctx, cancel := context.WithCancel(parent)
	done := make(chan struct{})
	go func() {
		select {
		case <-sigs:
			cancel()
		case <-done:
			return
		}
		select {
		case s := <-sigs:
			fmt.Fprintf(stderr, "cms: second signal (%v) during shutdown: forcing exit\n", s)
			exit(130)
		case <-done:
		}
	}()
	return ctx, func() { close(done); cancel() }
}

// exitError ends the process with a code after the command printed its own message.
type exitError int

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// env bundles what a command may touch of the outside world, so tests can run commands in-process.
type env struct {
	getenv func(string) string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	ready  func(net.Addr) // if set, serve and dev call it with the bound address (tests)
}

type command struct {
	summary string
	usage   string // the synopsis after "cms "
	example string // one typical invocation
	run     func(ctx context.Context, e env, args []string) error
}

func commands() map[string]command {
	return map[string]command{
		"serve": {summary: "run the service on a site folder", run: cmdServe,
			usage: "serve [--site DIR] [--addr HOST:PORT]", example: "cms serve --site ./my-site --addr :8080"},
		"dev": {summary: "create the starter site if missing, then serve it (make dev)", run: cmdDev,
			usage: "dev [--site DIR] [--addr HOST:PORT]", example: "cms dev --site .dev-site"},
		"init": {summary: "copy the starter site into a folder and create an admin user", run: cmdInit,
			usage: "init [--site DIR]", example: "cms init --site ./my-site"},
		"cache": {summary: "clear or warm the static page cache (file driver)", run: cmdCache,
			usage: "cache clear [--site DIR] | cms cache warm [--site DIR] [--handle SITE] [--concurrency N]", example: "cms cache warm --site ./my-site"},
		"check": {summary: "validate every definition, blueprint and entry of a site", run: cmdCheck,
			usage: "check [--site DIR]", example: "cms check --site ./my-site"},
		"generate": {summary: "write typed clients, validation schemas and the API contract from the blueprints", run: cmdGenerate,
			usage: "generate [--site DIR] [--out DIR] [--watch] [--check]", example: "cms generate --site ./my-site --check"},
		"hooks": {summary: "install (push) or list WASM validation hooks offline", run: cmdHooks,
			usage: "hooks push [--site DIR] NAME FILE.wasm | cms hooks list [--site DIR]", example: "cms hooks push --site ./my-site isbn bin/hooks/isbn.wasm"},
		"make-user": {summary: "create a user (prompts, or flags and --password-stdin for scripts)", run: cmdMakeUser,
			usage:   "make-user [--site DIR] [--id ID --email EMAIL --name NAME --roles ROLE,... --password-stdin]",
			example: "cms make-user --site ./my-site --email ed@example.com --name 'Ed Itor' --roles editor --password-stdin < pw.txt"},
		"reset-password": {summary: "set a new password for a user and end their sessions", run: cmdResetPassword,
			usage: "reset-password [--site DIR] [--password-stdin] EMAIL", example: "cms reset-password --site ./my-site admin@example.com"},
		"git": {summary: "git sync by hand: status, or commit and push what waits (sync, retry)", run: cmdGit,
			usage: "git status|sync|retry [--site DIR] [--repository ID]", example: "cms git sync --site ./my-site"},
		"snapshot": {summary: "write the entry index snapshot (.cms/) after copying a site into place", run: cmdSnapshot,
			usage: "snapshot [--site DIR] [--sort COLLECTION:SORT]...", example: "cms snapshot --site /mnt/site --sort posts:-rating"},
		"token": {summary: "create, list or revoke API tokens (service tokens for frontends and CI)", run: cmdToken,
			usage:   "token create [--site DIR] --name NAME --role ROLE [--expires 90d] [--user ID] | cms token list [--site DIR] | cms token revoke [--site DIR] ID",
			example: "cms token create --site ./my-site --name 'Site build' --role reader --expires 30d"},
		"seo": {summary: "audit a site's SEO; exit status 1 on errors (for CI)", run: cmdSEO,
			usage: "seo report [--dir DIR] [--site HANDLE] [--json]", example: "cms seo report --dir ./my-site --site default --json"},
		"version": {summary: "print the version", run: cmdVersion, usage: "version", example: "cms version"},
	}
}

func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	e := env{getenv: getenv, stdin: stdin, stdout: stdout, stderr: stderr}
	cmds := commands()
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		if len(args) == 2 && args[0] == "help" { // cms help COMMAND = cms COMMAND -h
			if _, ok := cmds[args[1]]; ok {
				return run(ctx, []string{args[1], "-h"}, getenv, stdin, stdout, stderr)
			}
		}
		usage(stdout, cmds)
		return nil
	}
	c, ok := cmds[args[0]]
	if !ok {
		usage(stderr, cmds)
		return fmt.Errorf("unknown command %q", args[0])
	}
	err := c.run(ctx, e, args[1:])
	if errors.Is(err, flag.ErrHelp) {
		return nil // the usage went to stdout
	}
	return err
}

func usage(w io.Writer, cmds map[string]command) {
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintln(w, "usage: cms <command> [flags]\n\ncommands:")
	for _, n := range names {
		fmt.Fprintf(w, "  %-15s %s\n", n, cmds[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'cms <command> -h' for a command's flags and an example.")
}

// flagSet is a command's flags. Parse sends -h's usage to stdout and returns flag.ErrHelp,
// which run turns into exit status 0; any other flag error has been printed with the usage to
// stderr and ends the run with exit status 2, as usage errors do.
type flagSet struct {
	*flag.FlagSet
	out *usageOut
}

// usageOut is the flag set's output: stderr, except that a usage printed without an error
// message before it (-h) goes to stdout.
type usageOut struct {
	e       env
	errored bool
}

func (u *usageOut) Write(p []byte) (int, error) {
	u.errored = true
	return u.e.stderr.Write(p)
}

func newFlags(name string, e env) flagSet {
	fs := flagSet{FlagSet: flag.NewFlagSet("cms "+name, flag.ContinueOnError), out: &usageOut{e: e}}
	fs.SetOutput(fs.out)
	fs.Usage = func() {
		w := e.stdout
		if fs.out.errored {
			w = e.stderr
		}
		c := commands()[strings.Fields(name)[0]]
		fmt.Fprintf(w, "usage: cms %s\n\n%s\n\nexample:\n  %s\n", c.usage, c.summary, c.example)
		if hasFlags(fs.FlagSet) {
			fmt.Fprintln(w, "\nflags:")
			fs.FlagSet.SetOutput(w)
			fs.PrintDefaults()
			fs.FlagSet.SetOutput(fs.out)
		}
	}
	return fs
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// Parse parses args; see flagSet.
func (fs flagSet) Parse(args []string) error {
	err := fs.FlagSet.Parse(args)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return err
	}
	return exitError(2)
}

func cmdVersion(_ context.Context, e env, args []string) error {
	if err := newFlags("version", e).Parse(args); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, "cms", version)
	return nil
}

// listenAddr is --addr, else :$PORT, else the configured port: on every interface in
// production, on loopback in development, where a fresh `make dev` has just printed an admin
// password and should not be reachable from the network.
func listenAddr(flagAddr string, getenv func(string) string, port int, production bool) string {
	if flagAddr != "" {
		return flagAddr
	}
	if p := getenv("PORT"); p != "" {
		return ":" + strings.TrimPrefix(p, ":")
	}
	if !production {
		return fmt.Sprintf("127.0.0.1:%d", port)
	}
	return fmt.Sprintf(":%d", port)
}

// cliMessage is what the terminal shows for err: a store's client-safe message without the
// operation name that prefixes it for logs, unless the error is internal (its cause is the useful
// part) or lists fields.
func cliMessage(err error) string {
	if ce, ok := err.(*content.Error); ok && ce.Kind != content.Internal && ce.Message != "" && len(ce.Fields) == 0 {
		return ce.Message
	}
	return err.Error()
}
