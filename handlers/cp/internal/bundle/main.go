// Command bundle builds the Control Panel's editor bundles in static/assets/vendor: codemirror.js
// (CodeMirror 6 for Markdown) and tiptap.js (tiptap for rich text), each one minified ES module
// with the licence notices of every package in it at its top. Two modules rather than one, so a
// screen loads only the editor it shows. Run it from the repository root with `make cp-bundle`;
// the results are committed, so building and running the service needs no Node.
//
// It installs the exact versions of package-lock.json with `npm ci` into a temporary folder
// (node_modules is never committed) and bundles the entries there with esbuild's Go API, so the
// bundler itself is a Go module pinned in go.mod.
package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

func main() {
	src := flag.String("src", "handlers/cp/internal/bundle", "folder of package.json, package-lock.json and the entries")
	out := flag.String("out", "handlers/cp/static/assets/vendor", "folder to write the bundles to")
	sizes := flag.Bool("sizes", false, "list each package's share of the bundle")
	flag.Parse()
	if err := run(*src, *out, *sizes); err != nil {
		fmt.Fprintln(os.Stderr, "cp-bundle:", err)
		os.Exit(1)
	}
}

// entries are the bundles' entry files, each bundled to a file of the same name.
var entries = []string{"codemirror.js", "tiptap.js"}

func run(src, out string, sizes bool) error {
	tmp, err := os.MkdirTemp("", "cp-bundle-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	for _, n := range append([]string{"package.json", "package-lock.json"}, entries...) {
		b, err := os.ReadFile(filepath.Join(src, n))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(tmp, n), b, 0o644); err != nil {
			return err
		}
	}
	// npm ci installs exactly the lock file's versions, checked against its integrity hashes;
	// no package's install scripts run.
	npm := exec.Command("npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund")
	npm.Dir, npm.Stdout, npm.Stderr = tmp, os.Stderr, os.Stderr
	if err := npm.Run(); err != nil {
		return fmt.Errorf("npm ci: %w", err)
	}

	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for _, e := range entries {
		if err := build(tmp, e, filepath.Join(out, e), sizes); err != nil {
			return fmt.Errorf("%s: %w", e, err)
		}
	}
	return nil
}

// build bundles one entry of dir into the file out.
func build(dir, entry, out string, sizes bool) error {
	res := api.Build(api.BuildOptions{
		AbsWorkingDir:     dir,
		EntryPoints:       []string{entry},
		Bundle:            true,
		Format:            api.FormatESModule,
		Platform:          api.PlatformBrowser,
		Target:            api.ES2020,
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		MinifySyntax:      true,
		TreeShaking:       api.TreeShakingTrue,
		Charset:           api.CharsetUTF8,
		LegalComments:     api.LegalCommentsNone, // the full notices are written at the top instead
		Define:            map[string]string{"process.env.NODE_ENV": `"production"`},
		Metafile:          true,
		Outfile:           entry + ".out",
		Plugins:           []api.Plugin{adoptStyles},
	})
	if len(res.Errors) > 0 {
		msgs := api.FormatMessages(res.Errors, api.FormatMessagesOptions{Kind: api.ErrorMessage})
		return errors.New(strings.Join(msgs, "\n"))
	}
	if len(res.OutputFiles) != 1 {
		return fmt.Errorf("esbuild wrote %d files, want 1", len(res.OutputFiles))
	}
	if sizes {
		fmt.Fprintln(os.Stderr, api.AnalyzeMetafile(res.Metafile, api.AnalyzeMetafileOptions{}))
	}
	notice, err := notices(dir, entry, res.Metafile)
	if err != nil {
		return err
	}
	body := append([]byte(notice), res.OutputFiles[0].Contents...)
	// Written beside the target and renamed, so a failed run never leaves half a bundle.
	part := out + ".part"
	if err := os.WriteFile(part, body, 0o644); err != nil {
		return err
	}
	if err := os.Rename(part, out); err != nil {
		return err
	}
	fmt.Printf("cp-bundle: wrote %s (%d bytes)\n", out, len(body))
	return nil
}

// styleModIf is the line of style-mod (CodeMirror's style injector) that picks a <style> element
// for a document and a constructed stylesheet only for a shadow root.
const styleModIf = "if (!root.head && root.adoptedStyleSheets && win.CSSStyleSheet) {"

// adoptStyles patches style-mod to give a document a constructed stylesheet too (adopted with
// document.adoptedStyleSheets, in every current browser): the CP's CSP allows no inline <style>,
// so CodeMirror's base theme would otherwise be refused and the editor drawn unstyled. The build
// fails if the line is not found, so an update of style-mod cannot silently undo the patch.
var adoptStyles = api.Plugin{
	Name: "style-mod-adopt",
	Setup: func(b api.PluginBuild) {
		b.OnLoad(api.OnLoadOptions{Filter: `[\\/]style-mod[\\/]src[\\/]style-mod\.js$`}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			src, err := os.ReadFile(a.Path)
			if err != nil {
				return api.OnLoadResult{}, err
			}
			if n := strings.Count(string(src), styleModIf); n != 1 {
				return api.OnLoadResult{}, fmt.Errorf("style-mod: found the line to patch %d times, want once: %q", n, styleModIf)
			}
			out := strings.Replace(string(src), styleModIf, "if (root.adoptedStyleSheets && win.CSSStyleSheet) {", 1)
			return api.OnLoadResult{Contents: &out, Loader: api.LoaderJS}, nil
		})
	},
}

// pkg is one npm package with code in the bundle.
type pkg struct {
	Name, Version, License string
	text                   string // its licence file
}

// notices returns the comment at the top of the bundle: every package with code in it, and the
// licence texts (each distinct text once).
func notices(root, entry, metafile string) (string, error) {
	// The output's inputs are the files with code in the bundle (the metafile's top-level
	// inputs also list files that tree shaking dropped entirely).
	var meta struct {
		Outputs map[string]struct {
			Inputs map[string]struct {
				BytesInOutput int `json:"bytesInOutput"`
			} `json:"inputs"`
		} `json:"outputs"`
	}
	if err := json.Unmarshal([]byte(metafile), &meta); err != nil {
		return "", err
	}
	seen := map[string]*pkg{}
	var inputs []string
	for _, o := range meta.Outputs {
		for in, st := range o.Inputs {
			if st.BytesInOutput > 0 {
				inputs = append(inputs, in)
			}
		}
	}
	for _, in := range inputs {
		i := strings.LastIndex(in, "node_modules/")
		if i < 0 {
			continue
		}
		parts := strings.SplitN(in[i+len("node_modules/"):], "/", 3)
		name := parts[0]
		if strings.HasPrefix(name, "@") && len(parts) > 1 {
			name += "/" + parts[1]
		}
		dir := filepath.Join(root, in[:i], "node_modules", filepath.FromSlash(name))
		if _, ok := seen[dir]; ok {
			continue
		}
		var p pkg
		b, err := os.ReadFile(filepath.Join(dir, "package.json"))
		if err != nil {
			return "", err
		}
		if err := json.Unmarshal(b, &p); err != nil {
			return "", fmt.Errorf("%s: %w", name, err)
		}
		for _, n := range []string{"LICENSE", "LICENSE.md", "LICENSE.txt", "LICENCE", "license", "license.md"} {
			if b, err := os.ReadFile(filepath.Join(dir, n)); err == nil {
				p.text = strings.TrimSpace(string(b))
				break
			}
		}
		if p.text == "" {
			return "", fmt.Errorf("%s has no licence file", p.Name)
		}
		seen[dir] = &p
	}
	pkgs := slices.SortedFunc(func(yield func(*pkg) bool) {
		for _, p := range seen {
			if !yield(p) {
				return
			}
		}
	}, func(a, b *pkg) int { return cmp.Compare(a.Name, b.Name) })

	var b strings.Builder
	fmt.Fprintf(&b, "/*! %s for the Control Panel, bundled from handlers/cp/internal/bundle/%s\n", strings.TrimSuffix(entry, ".js"), entry)
	b.WriteString(" * by `make cp-bundle` with the versions of its package-lock.json. Packages:\n")
	texts := map[string][]string{}
	var order []string
	for _, p := range pkgs {
		fmt.Fprintf(&b, " *   %s %s (%s)\n", p.Name, p.Version, p.License)
		if _, ok := texts[p.text]; !ok {
			order = append(order, p.text)
		}
		texts[p.text] = append(texts[p.text], p.Name)
	}
	for _, t := range order {
		fmt.Fprintf(&b, " *\n * Licence of %s:\n *\n", strings.Join(texts[t], ", "))
		for l := range strings.SplitSeq(strings.ReplaceAll(t, "*/", "* /"), "\n") {
			b.WriteString(strings.TrimRight(" * "+l, " ") + "\n")
		}
	}
	b.WriteString(" */\n")
	return b.String(), nil
}
