package groups_test

import (
	"go/build"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestHandlersDoNotImportTheBackend keeps the handlers on their side of the seam: they name the
// domain types of cms/content and declare the store methods they call as interfaces, and the
// runtime wires in cms/content/fsstore. Test-support packages (authtest) open a real store on
// purpose and are linked into tests only; _test.go files are not counted.
func TestHandlersDoNotImportTheBackend(t *testing.T) {
	t.Parallel()
	const backend = "cms/content/fsstore"
	root := filepath.Join("..", "..", "handlers")
	checked := 0
	err := filepath.WalkDir(root, func(dir string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if d.Name() == "testdata" {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(dir, 0)
		if _, none := err.(*build.NoGoError); none {
			return nil
		}
		if err != nil {
			return err
		}
		if strings.HasSuffix(pkg.Name, "test") {
			return nil
		}
		checked++
		for _, imp := range pkg.Imports {
			if imp == backend || strings.HasPrefix(imp, backend+"/") {
				t.Errorf("%s imports %s; name the type in cms/content and declare the store method in the handler's Store interface", dir, imp)
			}
		}
		if slices.Contains(pkg.Imports, "cms/runtime/wire") {
			t.Errorf("%s imports the runtime", dir)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 10 {
		t.Fatalf("checked only %d handler packages; is the walk rooted right?", checked)
	}
}
