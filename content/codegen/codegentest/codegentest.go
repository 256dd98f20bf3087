// Package codegentest runs the TypeScript that cms generate writes: it finds the pinned
// typescript and zod that .ci/run installs ($CMS_TS_TOOLS), compiles with tsc --strict and runs
// scripts with node. Tests skip with a message when the tools are not there.
package codegentest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// Tools returns the folder holding node_modules with the pinned typescript and zod (and
// @types/node, yaml) that .ci/run installs, from $CMS_TS_TOOLS, or skips the test.
func Tools(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("CMS_TS_TOOLS")
	if dir == "" {
		t.Skip("CMS_TS_TOOLS is unset: set it to a folder where `npm install typescript@5.9.3 zod@4.1.12 @types/node@20 yaml@2.8.1` ran (.ci/run does) to compile and run the generated TypeScript")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "typescript", "bin", "tsc")); err != nil {
		t.Fatalf("CMS_TS_TOOLS=%s has no node_modules/typescript: %v", dir, err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not on PATH")
	}
	return dir
}

// WriteFile writes data to the slash-separated path inside dir, making folders.
func WriteFile(t *testing.T, dir, path string, data []byte) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Compile type-checks the TypeScript in dir with tsc --strict (and, with outDir, emits CommonJS
// there so node can run it).
func Compile(t *testing.T, tools, dir, outDir string) {
	t.Helper()
	if err := os.Symlink(filepath.Join(tools, "node_modules"), filepath.Join(dir, "node_modules")); err != nil && !os.IsExist(err) {
		t.Fatal(err)
	}
	emit := `"noEmit": true`
	if outDir != "" {
		emit = `"outDir": ` + strconv.Quote(outDir)
	}
	cfg := `{"compilerOptions": {"strict": true, ` + emit + `, "target": "es2022", "module": "commonjs",
  "moduleResolution": "node10", "lib": ["es2022", "dom"], "types": ["node"], "noUncheckedIndexedAccess": true,
  "exactOptionalPropertyTypes": false, "skipLibCheck": true, "rootDir": "."},
  "include": ["**/*.ts"], "exclude": ["node_modules"]}`
	if err := os.WriteFile(filepath.Join(dir, "tsconfig.json"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", filepath.Join(tools, "node_modules", "typescript", "bin", "tsc"), "-p", dir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("tsc --strict failed: %v\n%s", err, out.String())
	}
	if outDir != "" {
		if err := os.Symlink(filepath.Join(tools, "node_modules"), filepath.Join(outDir, "node_modules")); err != nil && !os.IsExist(err) {
			t.Fatal(err)
		}
	}
}

// RunNode runs a script with node and returns its standard output.
func RunNode(t *testing.T, script string, stdin []byte) []byte {
	t.Helper()
	cmd := exec.Command("node", script)
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("node %s: %v\n%s", script, err, errb.String())
	}
	return out.Bytes()
}
