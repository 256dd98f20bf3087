package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"cms/content"
	"cms/content/fsstore"
	"cms/content/validate"
	"cms/runtime/config"
	"cms/runtime/hookhost"
	"cms/runtime/wire"
	"cms/wasmhooks"
	"cms/wasmhooks/hookrun"
)

// cmdHooks manages a site's validation hooks offline, for deploy pipelines:
//
//	cms hooks push [--site DIR] NAME FILE.wasm   check a module as the upload API does, then install it
//	cms hooks list [--site DIR]                  list the installed hooks
func cmdHooks(ctx context.Context, e env, args []string) error {
	const usage = "usage: cms hooks push [--site DIR] NAME FILE.wasm | cms hooks list [--site DIR]"
	if len(args) == 0 {
		fmt.Fprintln(e.stderr, usage)
		return exitError(2)
	}
	sub, args := args[0], args[1:]
	if strings.HasPrefix(sub, "-") { // -h, or flags before the subcommand
		fl := newFlags("hooks", e)
		fl.String("site", "", "site folder (default $CMS_SITE_DIR or .)")
		if err := fl.Parse(append([]string{sub}, args...)); err != nil {
			return err
		}
		fmt.Fprintln(e.stderr, usage)
		return exitError(2)
	}
	fl := newFlags("hooks "+sub, e)
	site := fl.String("site", "", "site folder (default $CMS_SITE_DIR or .)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	switch sub {
	case "push":
		if fl.NArg() != 2 {
			fmt.Fprintln(e.stderr, usage)
			return exitError(2)
		}
		return hooksPush(ctx, e, *site, fl.Arg(0), fl.Arg(1))
	case "list":
		if fl.NArg() != 0 {
			fmt.Fprintln(e.stderr, usage)
			return exitError(2)
		}
		return hooksList(ctx, e, *site)
	}
	fmt.Fprintln(e.stderr, usage)
	return fmt.Errorf("unknown hooks command %q", sub)
}

// openSite loads a site's configuration and opens its store without watching.
func openSite(ctx context.Context, e env, site string, readOnly bool) (config.Config, *fsstore.Store, error) {
	cfg, _, err := config.Load(site, e.getenv)
	if err != nil {
		return cfg, nil, err
	}
	if err := requireSite(cfg, "--site"); err != nil {
		return cfg, nil, err
	}
	st, err := openStore(ctx, cfg, readOnly, false)
	return cfg, st, err
}

// openStore opens the configured store ([wire.StoreOptions]) for a command: not watched, not
// logged, read-only or not as the command needs, loading the index snapshot only when asked.
func openStore(ctx context.Context, cfg config.Config, readOnly, snapshot bool) (*fsstore.Store, error) {
	o := wire.StoreOptions(cfg)
	o.ReadOnly, o.Snapshot, o.Watch, o.Log = readOnly, snapshot, fsstore.WatchNone, slog.New(slog.DiscardHandler)
	return fsstore.Open(ctx, o)
}

func hooksPush(ctx context.Context, e env, site, name, file string) error {
	cfg, st, err := openSite(ctx, e, site, false)
	if err != nil {
		return err
	}
	defer st.Close()
	wasm, err := os.ReadFile(file)
	if err != nil {
		return fmt.Errorf("read module: %w", err)
	}
	// The same limits and compile cache as the service: a module accepted here is accepted
	// there, and a server on this machine finds it compiled.
	host, err := wasmhooks.New(hookhost.Options(cfg))
	if err != nil {
		return err
	}
	defer host.Close(context.WithoutCancel(ctx))
	start := time.Now()
	h, replaced, err := hookrun.Install(ctx, st, host, name, wasm, "cli", time.Now())
	if err != nil {
		if ce, ok := errors.AsType[*content.Error](err); ok && ce.Kind == content.Invalid {
			fmt.Fprintln(e.stdout, ce.Message)
			if d, ok := ce.Details.(wasmhooks.CheckDetails); ok && d.Stderr != "" {
				fmt.Fprintf(e.stdout, "module stderr:\n%s\n", d.Stderr)
			}
			return exitError(1)
		}
		return err
	}
	verb := "installed"
	if replaced {
		verb = "replaced"
	}
	fmt.Fprintf(e.stdout, "%s hook %s: %d bytes, sha256 %s, checked in %v\n", verb, h.Name, h.Size, h.SHA256, time.Since(start).Round(time.Millisecond))
	fmt.Fprintf(e.stdout, "use it in a blueprint field as validate: [hook:%s]\n", h.Name)
	return nil
}

func hooksList(ctx context.Context, e env, site string) error {
	_, st, err := openSite(ctx, e, site, true)
	if err != nil {
		return err
	}
	defer st.Close()
	list, err := st.Hooks()
	if err != nil {
		return err
	}
	if len(list) == 0 {
		fmt.Fprintln(e.stdout, "no hooks installed")
		return nil
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSIZE\tSHA256\tUPLOADED BY\tUPLOADED AT")
	for _, h := range list {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", h.Name, h.Size, h.SHA256[:12], h.UploadedBy, h.UploadedAt)
	}
	return tw.Flush()
}

// checkBlueprints reports the errors validate.CheckBlueprint finds in every blueprint (warnings
// are left out: they do not stop anything working), with the problem's path in the blueprint.
func checkBlueprints(st *fsstore.Store, _ config.Config) []fsstore.Problem {
	var out []fsstore.Problem
	for _, kind := range []string{content.BlueprintCollections, content.BlueprintGlobals, content.BlueprintForms,
		content.BlueprintNavigations, content.BlueprintTaxonomies} {
		for _, bp := range st.Blueprints(kind) {
			file := st.ResourcePath("blueprints", kind, bp.Handle+".yaml")
			for _, p := range validate.CheckBlueprint(bp, kind) {
				if !p.Warning {
					out = append(out, fsstore.Problem{File: file, Message: p.String()})
				}
			}
		}
	}
	return out
}

// checkFormsAndHooks reports forms whose blueprint is missing (they answer 500
// FORM_MISCONFIGURED) and blueprints that call hooks that are not installed (503
// HOOK_UNAVAILABLE): the check the forms group logs at start-up, over every blueprint kind.
func checkFormsAndHooks(st *fsstore.Store, _ config.Config) []fsstore.Problem {
	return hookrun.Problems(st, content.BlueprintCollections, content.BlueprintGlobals, content.BlueprintForms,
		content.BlueprintNavigations, content.BlueprintTaxonomies)
}
