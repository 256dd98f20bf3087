package wire_test

import (
	"testing"
	"testing/fstest"

	"cms/runtime/wire"
)

func TestContainerMemoryLimit(t *testing.T) {
	t.Parallel()
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	for _, tt := range []struct {
		name string
		fs   fstest.MapFS
		want int64
	}{
		{"no cgroup file", fstest.MapFS{}, 0},
		{"v2 container", fstest.MapFS{"proc/self/cgroup": file("0::/\n"), "sys/fs/cgroup/memory.max": file("536870912\n")}, 512 << 20},
		{"v2 without a limit", fstest.MapFS{"proc/self/cgroup": file("0::/\n"), "sys/fs/cgroup/memory.max": file("max\n")}, 0},
		{"v2 parent binds", fstest.MapFS{
			"proc/self/cgroup": file("0::/system.slice/cms.service\n"),
			"sys/fs/cgroup/system.slice/cms.service/memory.max": file("max\n"),
			"sys/fs/cgroup/system.slice/memory.max":             file("268435456\n"),
		}, 256 << 20},
		{"v2 child tighter", fstest.MapFS{
			"proc/self/cgroup":             file("0::/a/b\n"),
			"sys/fs/cgroup/a/b/memory.max": file("134217728\n"),
			"sys/fs/cgroup/a/memory.max":   file("268435456\n"),
		}, 128 << 20},
		{"v1 container", fstest.MapFS{
			"proc/self/cgroup":                                      file("12:cpu,cpuacct:/docker/abc\n11:memory:/docker/abc\n"),
			"sys/fs/cgroup/memory/memory.limit_in_bytes":            file("9223372036854771712\n"),
			"sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes": file("1073741824\n"),
		}, 1 << 30},
		{"v1 without a limit", fstest.MapFS{
			"proc/self/cgroup":                           file("11:memory:/\n"),
			"sys/fs/cgroup/memory/memory.limit_in_bytes": file("9223372036854771712\n"),
		}, 0},
		{"v1 cpu only", fstest.MapFS{
			"proc/self/cgroup":                           file("12:cpu,cpuacct:/\n"),
			"sys/fs/cgroup/memory/memory.limit_in_bytes": file("1073741824\n"),
		}, 0},
		{"garbage", fstest.MapFS{"proc/self/cgroup": file("0::/\nnonsense\n::\n"), "sys/fs/cgroup/memory.max": file("lots\n")}, 0},
	} {
		if got := wire.ContainerMemoryLimit(tt.fs); got != tt.want {
			t.Errorf("%s: ContainerMemoryLimit = %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestContainerCeiling(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ limit, want int64 }{
		{0, 0},
		{64 << 20, 0},         // 32 MiB of room would leave no more for the heap
		{128 << 20, 96 << 20}, // at least 32 MiB of room
		{512 << 20, 448 << 20},
		{4 << 30, 4<<30 - 512<<20}, // an eighth
	} {
		if got := wire.ContainerCeiling(tt.limit); got != tt.want {
			t.Errorf("ContainerCeiling(%d MiB) = %d MiB, want %d MiB", tt.limit>>20, got>>20, tt.want>>20)
		}
	}
}
