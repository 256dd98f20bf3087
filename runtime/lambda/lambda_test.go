package lambda_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cms/runtime/groups"
	"cms/runtime/lambda/lambdagen"
)

// moduleRoot is the module root relative to this package.
const moduleRoot = "../.."

// TestEveryGroupHasAMain checks the generated files against the group list: a main per group,
// no main without a group, and an up-to-date infra template.
func TestEveryGroupHasAMain(t *testing.T) {
	t.Parallel()
	files, err := lambdagen.Files(groups.All())
	if err != nil {
		t.Fatal(err)
	}
	for rel, want := range files {
		got, err := os.ReadFile(filepath.Join(moduleRoot, filepath.FromSlash(rel)))
		switch {
		case os.IsNotExist(err):
			t.Errorf("%s is missing: run go generate ./runtime/lambda", rel)
		case err != nil:
			t.Error(err)
		case !bytes.Equal(got, want):
			t.Errorf("%s is stale: run go generate ./runtime/lambda", rel)
		}
	}
	stale, err := lambdagen.StaleMains(os.DirFS(moduleRoot), files)
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range stale {
		t.Errorf("%s belongs to no group: run go generate ./runtime/lambda", rel)
	}
	// Hand-written mains would escape the generator; every folder here is a group or a helper.
	ents, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	helpers := []string{"internal", "lambdagen", "lambdamain", "testdata"}
	for _, e := range ents {
		if e.IsDir() && !slices.Contains(helpers, e.Name()) {
			if _, ok := files[lambdagen.MainPath(e.Name())]; !ok {
				t.Errorf("runtime/lambda/%s is neither a group's function nor a helper", e.Name())
			}
		}
	}
}

// deps maps each Lambda main to its transitive dependencies, as built (tag lambda.norpc).
func deps(t *testing.T) map[string][]string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not found")
	}
	out, err := exec.Command(goBin, "list", "-tags", "lambda.norpc", "-f", "{{.ImportPath}}{{range .Deps}} {{.}}{{end}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	m := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		m[f[0]] = f[1:]
	}
	return m
}

// TestMainsLinkOnlyTheirGroup is the dependency test: Go links whole packages, so a main that
// reached another group's handler (or the list of all groups) would carry that group's code and
// start-up work. Frontends must also stay free of the heavy libraries.
func TestMainsLinkOnlyTheirGroup(t *testing.T) {
	t.Parallel()
	all := groups.All()
	names := make([]string, len(all))
	for i, g := range all {
		names[i] = g.Name
	}
	m := deps(t)
	heavy := map[string][]string{ // package prefix -> the groups that may link it
		"github.com/graphql-go/":         {"graphql"},
		"github.com/awslabs/goformation": {},
	}
	frontendsWithoutWasm := []string{"publicentries", "health", "site"}
	for _, g := range all {
		pkg := "cms/runtime/lambda/" + g.Name
		d, ok := m[pkg]
		if !ok {
			t.Errorf("%s not found by go list", pkg)
			continue
		}
		for _, dep := range d {
			for _, other := range names {
				if other == g.Name {
					continue
				}
				if dep == "cms/handlers/"+other || strings.HasPrefix(dep, "cms/handlers/"+other+"/") ||
					dep == "cms/runtime/groups/"+other {
					t.Errorf("%s links %s, which belongs to the %s group", pkg, dep, other)
				}
			}
			if dep == "cms/runtime/groups" {
				t.Errorf("%s links the list of all groups", pkg)
			}
			for prefix, allowed := range heavy {
				if strings.HasPrefix(dep, prefix) && !slices.Contains(allowed, g.Name) {
					t.Errorf("%s links %s", pkg, dep)
				}
			}
			// Entries and forms validate with hook rules (wasmhooks/hookrun) but must not carry
			// the hooks upload API or its group builder.
			if (g.Name == "entries" || g.Name == "forms") && (dep == "cms/handlers/hooks" || dep == "cms/runtime/groups/hooks") {
				t.Errorf("%s links %s (the hooks upload API)", pkg, dep)
			}
			if slices.Contains(frontendsWithoutWasm, g.Name) &&
				(strings.HasPrefix(dep, "github.com/tetratelabs/wazero") || dep == "cms/wasmhooks") {
				t.Errorf("%s links %s (the WASM host is not needed to read entries)", pkg, dep)
			}
		}
		if !slices.Contains(d, "cms/runtime/groups/"+g.Name) || !slices.Contains(d, "github.com/akrylysov/algnhsa") {
			t.Errorf("%s does not link its group builder and algnhsa", pkg)
		}
	}
	// The core every main links must not pull in a group (handlers/web and handlers/authn belong
	// to none).
	for _, dep := range m["cms/runtime/lambda/lambdamain"] {
		if strings.HasPrefix(dep, "cms/runtime/groups") || (strings.HasPrefix(dep, "cms/handlers/") && dep != "cms/handlers/web" && dep != "cms/handlers/authn") {
			t.Errorf("lambdamain links %s", dep)
		}
	}
}

// TestNothingLinksLocal: runtime code must not depend on the local command's packages (imports
// point one way: local -> runtime), including the benchmarks under runtime/lambda/internal.
func TestNothingLinksLocal(t *testing.T) {
	t.Parallel()
	for pkg, d := range deps(t) {
		for _, dep := range d {
			if dep == "cms/local" || strings.HasPrefix(dep, "cms/local/") {
				t.Errorf("%s links %s", pkg, dep)
			}
		}
	}
}
