package lambda_test

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// makeCmd runs make in the module root with the given arguments, in an environment without the
// variables that would choose the architecture or leak an outer make's state (make test runs
// this test).
func makeCmd(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	makeBin, err := exec.LookPath("make")
	if err != nil {
		t.Skip("make not installed")
	}
	cmd := exec.Command(makeBin, append([]string{"--no-print-directory", "-C", moduleRoot}, args...)...)
	for _, kv := range os.Environ() {
		switch name, _, _ := strings.Cut(kv, "="); name {
		case "GOOS", "GOARCH", "GOARCH_LAMBDA", "LAMBDA_DIST", "LAMBDA_GROUPS", "MAKEFLAGS", "MFLAGS", "MAKELEVEL":
		default:
			cmd.Env = append(cmd.Env, kv)
		}
	}
	return cmd
}

// TestMakeLambdaArchitecture checks which GOARCH make lambda passes to go build: arm64 by
// default, amd64 from GOARCH or its alias GOARCH_LAMBDA (make -n: nothing is built).
func TestMakeLambdaArchitecture(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		env  string
		want string
	}{
		{nil, "", "GOARCH=arm64"},
		{[]string{"GOARCH=amd64"}, "", "GOARCH=amd64"},
		{[]string{"GOARCH_LAMBDA=amd64"}, "", "GOARCH=amd64"},
		{nil, "GOARCH=amd64", "GOARCH=amd64"},
	}
	for _, c := range cases {
		cmd := makeCmd(t, append([]string{"-n", "lambda", "LAMBDA_GROUPS=health", "LAMBDA_DIST=" + t.TempDir()}, c.args...)...)
		if c.env != "" {
			cmd.Env = append(cmd.Env, c.env)
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("make -n lambda %v: %v\n%s", c.args, err, out)
		}
		if !strings.Contains(string(out), c.want+" ") {
			t.Errorf("make -n lambda %v (env %q) does not build with %s:\n%s", c.args, c.env, c.want, out)
		}
	}
}

// TestMakeLambdaAmd64 runs make lambda GOARCH=amd64 for one group and reads the ELF header of
// its bootstrap. One small main rather than every group: the full build takes minutes, and the
// architecture comes from the same go build line either way. On a cold build cache this still
// compiles the main's dependencies (about 30 s of CPU); -short skips it.
func TestMakeLambdaAmd64(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping a cross-build of a Lambda function")
	}
	t.Parallel()
	dist := filepath.Join(t.TempDir(), "lambda")
	cmd := makeCmd(t, "lambda", "GOARCH=amd64", "LAMBDA_GROUPS=health", "LAMBDA_DIST="+dist)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make lambda GOARCH=amd64: %v\n%s", err, out)
	}
	f, err := elf.Open(filepath.Join(dist, "health", "bootstrap"))
	if err != nil {
		t.Fatalf("bootstrap: %v\n%s", err, out)
	}
	defer f.Close()
	if f.Machine != elf.EM_X86_64 || f.Class != elf.ELFCLASS64 {
		t.Errorf("bootstrap is %v %v, want EM_X86_64 ELFCLASS64", f.Machine, f.Class)
	}
	if _, err := os.Stat(filepath.Join(dist, "health.zip")); err != nil {
		t.Errorf("no zip: %v", err)
	}
	if !strings.Contains(string(out), "linux/amd64") || !strings.Contains(string(out), "Architecture=x86_64") {
		t.Errorf("make lambda does not say what it built for:\n%s", out)
	}
	if b, err := os.ReadFile(filepath.Join(dist, "architecture.txt")); err != nil || string(b) != "x86_64\n" {
		t.Errorf("architecture.txt = %q, %v; want x86_64", b, err)
	}
}
