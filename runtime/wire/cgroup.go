package wire

import (
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
)

// ContainerMemoryLimit returns the memory limit of the control group the process runs in: the
// tightest of its own and its ancestors' (cgroup v2 memory.max, v1 memory.limit_in_bytes), as a
// container runtime or systemd sets it, or 0 when there is none or it cannot be read. fsys is
// the root file system (os.DirFS("/")).
func ContainerMemoryLimit(fsys fs.FS) int64 {
	raw, err := fs.ReadFile(fsys, "proc/self/cgroup")
	if err != nil {
		return 0
	}
	var limit int64
	read := func(p string) {
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return
		}
		n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		// "max" (v2) and a page-rounded MaxInt64 (v1) mean no limit.
		if err != nil || n <= 0 || n >= 1<<60 {
			return
		}
		if limit == 0 || n < limit {
			limit = n
		}
	}
	for line := range strings.SplitSeq(string(raw), "\n") {
		// hierarchy-ID:controllers:path
		id, rest, ok1 := strings.Cut(line, ":")
		controllers, cgroup, ok2 := strings.Cut(rest, ":")
		if !ok1 || !ok2 || !strings.HasPrefix(cgroup, "/") {
			continue
		}
		var dir, file string
		switch {
		case id == "0" && controllers == "": // v2, the unified hierarchy
			dir, file = "sys/fs/cgroup", "memory.max"
		case slices.Contains(strings.Split(controllers, ","), "memory"): // v1
			dir, file = "sys/fs/cgroup/memory", "memory.limit_in_bytes"
		default:
			continue
		}
		// A parent's limit binds its children. In a container with its own cgroup namespace the
		// path is "/", and the container's limit is at the top of its mount.
		for p := path.Clean(cgroup); ; p = path.Dir(p) {
			read(path.Join(dir, p, file))
			if p == "/" {
				break
			}
		}
	}
	return limit
}

// ContainerCeiling is the highest soft memory limit a derived one may reach in a container
// limited to limit bytes (ContainerMemoryLimit): the limit less room for what the Go heap does
// not count (the binary's pages, stacks, the kernel's buffers for the process), an eighth and
// at least 32 MiB; 0 (no ceiling) when there is no limit or it leaves no room.
func ContainerCeiling(limit int64) int64 {
	room := max(limit/8, 32<<20)
	if limit <= 2*room {
		return 0
	}
	return limit - room
}
