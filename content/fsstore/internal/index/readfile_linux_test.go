package index

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// readAsOtherEnv names the site a child of TestReadFilesOfAnotherOwner reads as another user.
const readAsOtherEnv = "CMS_TEST_READ_AS_OTHER"

// The files of a collection are read whoever owns them: a process that may not open them without
// updating access times (O_NOATIME is for the owner) reads them as everybody may. Needs root, to
// run a child as nobody.
func TestReadFilesOfAnotherOwner(t *testing.T) {
	if site := os.Getenv(readAsOtherEnv); site != "" {
		readEveryFile(t, site)
		return
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root to read the files as another user")
	}
	t.Parallel()
	site := t.TempDir()
	// The child runs as nobody: every folder on the way must let it through.
	for d := site; d != "/" && d != os.TempDir(); d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for d := os.TempDir(); ; d = filepath.Dir(d) {
		if fi, err := os.Stat(d); err != nil || fi.Mode().Perm()&0o001 == 0 {
			t.Skipf("%s is closed to other users", d)
		}
		if d == "/" {
			break
		}
	}
	if err := os.MkdirAll(filepath.Join(site, "posts"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a", "b", "c"} {
		if err := os.WriteFile(filepath.Join(site, "posts", name+".md"), []byte("---\ntitle: "+name+"\n---\nBody "+name+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(site, "test.bin") // the go tool's build folder is closed to others
	src, err := os.Open(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), bin, "-test.run=^TestReadFilesOfAnotherOwner$", "-test.v")
	cmd.Env = append(os.Environ(), readAsOtherEnv+"="+site)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "read 3 files") {
		t.Fatalf("reading as nobody: %v\n%s", err, out)
	}

	// As the owner, reading a file written since it was last read leaves its access time (where
	// the file system keeps one).
	p := filepath.Join(site, "posts", "a.md")
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(p, old, time.Now()); err != nil { // read before it was written
		t.Fatal(err)
	}
	readEveryFile(t, site)
	var st unix.Stat_t
	if err := unix.Stat(p, &st); err != nil {
		t.Fatal(err)
	}
	if got := time.Unix(st.Atim.Unix()); got.After(old.Add(time.Second)) {
		t.Errorf("access time moved from %v to %v: the index read should not update it", old, got)
	}
}

// readEveryFile reads each file of site/posts through a dirReader and checks its text.
func readEveryFile(t *testing.T, site string) {
	t.Helper()
	root, err := os.OpenRoot(site)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	rd, err := newDirReader(root, "posts")
	if err != nil {
		t.Fatal(err)
	}
	defer rd.close()
	var buf []byte
	for _, name := range []string{"a", "b", "c"} {
		raw, size, _, err := rd.read(name+".md", &buf)
		if err != nil || !strings.Contains(string(raw), "Body "+name) || size != int64(len(raw)) {
			t.Fatalf("read %s: %q (%d bytes), %v", name, raw, size, err)
		}
	}
	t.Logf("read 3 files")
}
