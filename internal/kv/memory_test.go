package kv

import (
	"os"
	"path/filepath"
	"testing"
)

// writeFiles creates files under dir from a path → content map.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestMemoryLimitSources(t *testing.T) {
	const meminfo = "MemTotal:       16384000 kB\nMemFree:         1000 kB\n"
	const memTotal = int64(16384000) * 1024
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  int64
	}{
		{"meminfo only", map[string]string{"meminfo": meminfo}, memTotal},
		{"v2 root limit", map[string]string{
			"meminfo": meminfo, "v2/memory.max": "2147483648\n",
		}, 2 << 30},
		{"v2 max ignored", map[string]string{
			"meminfo": meminfo, "v2/memory.max": "max\n",
		}, memTotal},
		{"v2 own cgroup", map[string]string{
			"meminfo": meminfo, "cgroup": "0::/system.slice/strata.service\n",
			"v2/system.slice/strata.service/memory.max": "1073741824\n",
			"v2/memory.max": "max\n",
		}, 1 << 30},
		{"v1 unlimited ignored", map[string]string{
			"meminfo": meminfo, "v1/memory.limit_in_bytes": "9223372036854771712\n",
		}, memTotal},
		{"v1 own cgroup", map[string]string{
			"meminfo": meminfo, "cgroup": "5:cpu,memory:/docker/abc\n0::/\n",
			"v1/docker/abc/memory.limit_in_bytes": "536870912\n",
			"v1/memory.limit_in_bytes":            "9223372036854771712\n",
		}, 512 << 20},
		{"limit above MemTotal ignored", map[string]string{
			"meminfo": meminfo, "v2/memory.max": "68719476736\n",
		}, memTotal},
		{"smallest wins", map[string]string{
			"meminfo": meminfo, "v2/memory.max": "3221225472", "v1/memory.limit_in_bytes": "2147483648",
		}, 2 << 30},
		{"garbage ignored", map[string]string{
			"meminfo": meminfo, "v2/memory.max": "lots\n", "v1/memory.limit_in_bytes": "0\n",
		}, memTotal},
		{"nothing readable", map[string]string{}, fallbackMemory},
		{"cgroup without meminfo", map[string]string{"v2/memory.max": "1073741824"}, 1 << 30},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tc.files)
			src := memorySources{
				procSelfCgroup: filepath.Join(dir, "cgroup"),
				cgroupV2Root:   filepath.Join(dir, "v2"),
				cgroupV1Memory: filepath.Join(dir, "v1"),
				meminfo:        filepath.Join(dir, "meminfo"),
			}
			if got := src.limit(); got != tc.want {
				t.Errorf("limit() = %d, want %d", got, tc.want)
			}
		})
	}
}

func TestMemoryLimitOnThisMachine(t *testing.T) {
	got := MemoryLimit()
	if got <= 0 {
		t.Fatalf("MemoryLimit() = %d", got)
	}
	if total := readMemTotal("/proc/meminfo"); total > 0 && got > total {
		t.Errorf("MemoryLimit() = %d exceeds MemTotal %d", got, total)
	}
}
