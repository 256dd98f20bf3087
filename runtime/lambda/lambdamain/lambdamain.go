// Package lambdamain runs one endpoint group as an AWS Lambda function. Each
// runtime/lambda/<group>/main.go calls Main with its group, so the binary links that group alone.
//
// Configuration comes from the environment: every configuration-file key as CMS_* (see
// runtime/config), with Lambda defaults for two of them: CMS_SITE_DIR=/mnt/site (the EFS mount)
// and CMS_WATCH=generation (no watcher goroutines; the store checks the generation file once per
// request and loads the index snapshot on first use).
//
// A group that is neither a writer nor an appender is a read-only frontend: it never writes,
// and the options that need durable writable storage are switched off (spec rule 4), which is
// logged once at start.
package lambdamain

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"

	"cms/runtime/config"
	"cms/runtime/serve"
	"cms/runtime/wire"
)

// lambdaDefault is the value the Lambda environment gives an unset variable.
func lambdaDefault(k string) string {
	switch k {
	case "CMS_SITE_DIR":
		return "/mnt/site"
	case "CMS_WATCH":
		return "generation"
	}
	return ""
}

// Main runs group g until the Lambda runtime stops the process; a start-up error is printed and
// ends the process with status 1 (Lambda then reports an init error).
func Main(g wire.Group) {
	h, opts, cfg, err := build(context.Background(), g, os.Getenv, os.Stdout)
	if err != nil {
		fmt.Fprintf(os.Stderr, "cms %s: %v\n", g.Name, err)
		os.Exit(1)
	}
	// The function's memory, less headroom, unless memory.limitMiB or GOMEMLIMIT says otherwise.
	wire.SetMemoryLimit(cfg.Memory.LimitMiB, os.Getenv, opts.Log)
	serve.Lambda(h, opts)
}

// Getenv returns getenv with the Lambda defaults filled in.
func Getenv(getenv func(string) string) func(string) string {
	return func(k string) string {
		if v := getenv(k); v != "" {
			return v
		}
		return lambdaDefault(k)
	}
}

// Build loads the configuration, builds the services and group g, and returns the handler the
// Lambda runner serves (serve.Stack around the group's mux, refreshing the store first on every
// request) with the runner's options. Tests call it to serve a group in-process.
func Build(ctx context.Context, g wire.Group, getenv func(string) string, stdout io.Writer) (http.Handler, serve.LambdaOptions, error) {
	h, opts, _, err := build(ctx, g, getenv, stdout)
	return h, opts, err
}

// build is Build that returns the configuration too.
func build(ctx context.Context, g wire.Group, getenv func(string) string, stdout io.Writer) (http.Handler, serve.LambdaOptions, config.Config, error) {
	getenv = Getenv(getenv)
	cfg, warns, err := config.Load("", getenv)
	if err != nil {
		return nil, serve.LambdaOptions{}, cfg, err
	}
	log := wire.NewLogger(cfg, stdout).With("function", g.Name)
	for _, w := range warns {
		log.Warn(string(w))
	}
	if !g.Writer && !g.Appends {
		// Whether editors can work is a property of the deployment (are writer functions
		// deployed?), which the template states through CMS_CP_ENABLED; a frontend's own
		// read-only mount says nothing about it, so cp.enabled keeps its configured value.
		cpEnabled := cfg.CP.Enabled
		off := slices.DeleteFunc(wire.ApplyReadOnly(&cfg), func(o string) bool { return o == "cp.enabled" })
		cfg.CP.Enabled = cpEnabled
		cfg.Disabled = off
		log.Info("read-only frontend: writes refused, write-dependent options switched off", "disabled", strings.Join(off, ", "))
	}
	switch {
	case g.Writer:
		cfg.Instance = g.Name // each writer function keeps its own git sync queue
	case g.Appends:
		cfg.Git.Enabled = false // only writers run git sync
	}
	svc, err := wire.NewServices(ctx, cfg, log)
	if err != nil {
		return nil, serve.LambdaOptions{}, cfg, err
	}
	mux, err := wire.Mount(svc, g)
	if err != nil {
		svc.Close()
		return nil, serve.LambdaOptions{}, cfg, err
	}
	store := svc.Store
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		store.Refresh() // one stat of the generation file; re-reads only what writers changed
		mux.ServeHTTP(w, r)
	})
	return serve.Stack(h, log), serve.LambdaOptions{BasePath: cfg.BasePath, Log: log}, cfg, nil
}
