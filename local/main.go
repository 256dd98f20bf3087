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
)

// version is set at link time (-ldflags "-X main.version=...").
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		var ee exitError
		if errors.As(err, &ee) {
			os.Exit(int(ee))
		}
		fmt.Fprintln(os.Stderr, "cms:", err)
		os.Exit(1)
	}
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
	run     func(ctx context.Context, e env, args []string) error
}

func commands() map[string]command {
	return map[string]command{
		"serve":     {"run the service on a site folder", cmdServe},
		"dev":       {"create the starter site if missing, then serve it (make dev)", cmdDev},
		"init":      {"copy the starter site into a folder and create an admin user", cmdInit},
		"check":     {"validate every definition, blueprint and entry of a site", cmdCheck},
		"hooks":     {"install (push) or list WASM validation hooks offline", cmdHooks},
		"make-user": {"create a user (prompts, or flags and --password-stdin for scripts)", cmdMakeUser},
		"snapshot":  {"write the entry index snapshot (.cms/) after copying a site into place", cmdSnapshot},
		"version":   {"print the version", cmdVersion},
	}
}

func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	e := env{getenv: getenv, stdin: stdin, stdout: stdout, stderr: stderr}
	cmds := commands()
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout, cmds)
		return nil
	}
	c, ok := cmds[args[0]]
	if !ok {
		usage(stderr, cmds)
		return fmt.Errorf("unknown command %q", args[0])
	}
	return c.run(ctx, e, args[1:])
}

func usage(w io.Writer, cmds map[string]command) {
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintln(w, "usage: cms <command> [flags]\n\ncommands:")
	for _, n := range names {
		fmt.Fprintf(w, "  %-12s %s\n", n, cmds[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'cms <command> -h' for a command's flags.")
}

func newFlags(name string, e env) *flag.FlagSet {
	fs := flag.NewFlagSet("cms "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	return fs
}

func cmdVersion(_ context.Context, e env, _ []string) error {
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
