// Command zipper packages the Lambda binaries that make lambda built into a folder: each
// <dir>/<group> becomes <dir>/<group>/bootstrap and <dir>/<group>.zip, a zip with one executable
// file named bootstrap at its root (what the provided.al2023 runtime starts). Timestamps are
// fixed, so the same binary gives the same zip. It prints the size of each function.
package main

import (
	"archive/zip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: zipper DIR")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "zipper:", err)
		os.Exit(1)
	}
}

func run(dir string, out io.Writer) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var names []string
	for _, e := range ents {
		if e.Type().IsRegular() && filepath.Ext(e.Name()) == "" {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		return fmt.Errorf("no binaries in %s", dir)
	}
	fmt.Fprintf(out, "%-16s %12s %12s\n", "function", "bootstrap", "zip")
	for _, name := range names {
		// The binary is named like the folder it moves into: step aside first.
		tmp := filepath.Join(dir, name+".tmp")
		if err := os.Rename(filepath.Join(dir, name), tmp); err != nil {
			return err
		}
		bin := filepath.Join(dir, name, "bootstrap")
		if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
			return err
		}
		if err := os.Rename(tmp, bin); err != nil {
			return err
		}
		zipPath := filepath.Join(dir, name+".zip")
		if err := zipOne(zipPath, bin); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		bs, _ := os.Stat(bin)
		zs, _ := os.Stat(zipPath)
		fmt.Fprintf(out, "%-16s %8.1f MiB %8.1f MiB\n", name, mb(bs.Size()), mb(zs.Size()))
	}
	return nil
}

func mb(n int64) float64 { return float64(n) / (1 << 20) }

func zipOne(zipPath, bin string) (err error) {
	src, err := os.Open(bin)
	if err != nil {
		return err
	}
	defer src.Close()
	f, err := os.Create(zipPath)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	zw := zip.NewWriter(f)
	h := &zip.FileHeader{Name: "bootstrap", Method: zip.Deflate, Modified: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)}
	h.SetMode(0o755)
	w, err := zw.CreateHeader(h)
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, src); err != nil {
		return err
	}
	return zw.Close()
}
