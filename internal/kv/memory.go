package kv

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// fallbackMemory is the budget assumed when no memory source is readable.
const fallbackMemory = 1 * gib

// memorySources names the files MemoryLimit reads; tests point them at
// fixtures.
type memorySources struct {
	// procSelfCgroup is /proc/self/cgroup, used to find the process's own
	// cgroup below the mount points.
	procSelfCgroup string
	// cgroupV2Root is the cgroup v2 mount (/sys/fs/cgroup).
	cgroupV2Root string
	// cgroupV1Memory is the cgroup v1 memory controller mount
	// (/sys/fs/cgroup/memory).
	cgroupV1Memory string
	// meminfo is /proc/meminfo.
	meminfo string
}

var systemMemorySources = memorySources{
	procSelfCgroup: "/proc/self/cgroup",
	cgroupV2Root:   "/sys/fs/cgroup",
	cgroupV1Memory: "/sys/fs/cgroup/memory",
	meminfo:        "/proc/meminfo",
}

// MemoryLimit returns the bytes of memory this process may use: the smallest
// of the cgroup v2 limit (memory.max), the cgroup v1 limit
// (memory.limit_in_bytes) — both looked up for the process's own cgroup and
// at the mount root, ignoring "max" and unlimited values — and the machine's
// MemTotal from /proc/meminfo. If nothing is readable it returns 1 GiB.
func MemoryLimit() int64 {
	return systemMemorySources.limit()
}

func (s memorySources) limit() int64 {
	limit := readMemTotal(s.meminfo)
	consider := func(path string) {
		v, ok := readCgroupLimit(path)
		if ok && (limit <= 0 || v < limit) {
			limit = v
		}
	}
	v1Path, v2Path := ownCgroups(s.procSelfCgroup)
	if s.cgroupV2Root != "" {
		if v2Path != "" && v2Path != "/" {
			consider(filepath.Join(s.cgroupV2Root, v2Path, "memory.max"))
		}
		consider(filepath.Join(s.cgroupV2Root, "memory.max"))
	}
	if s.cgroupV1Memory != "" {
		if v1Path != "" && v1Path != "/" {
			consider(filepath.Join(s.cgroupV1Memory, v1Path, "memory.limit_in_bytes"))
		}
		consider(filepath.Join(s.cgroupV1Memory, "memory.limit_in_bytes"))
	}
	if limit <= 0 {
		return fallbackMemory
	}
	return limit
}

// unlimitedThreshold: cgroup v1 reports "no limit" as a page-rounded
// MaxInt64 (9223372036854771712); anything at or above 2^60 is treated as
// unlimited.
const unlimitedThreshold = int64(1) << 60

// readCgroupLimit parses a memory.max or memory.limit_in_bytes file. ok is
// false if the file is missing, unparsable, "max", zero or unlimited.
func readCgroupLimit(path string) (limit int64, ok bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	text := strings.TrimSpace(string(data))
	if text == "" || text == "max" {
		return 0, false
	}
	v, err := strconv.ParseInt(text, 10, 64)
	if err != nil || v <= 0 || v >= unlimitedThreshold {
		return 0, false
	}
	return v, true
}

// readMemTotal returns MemTotal from a /proc/meminfo file in bytes, or 0.
func readMemTotal(path string) int64 {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		rest, found := strings.CutPrefix(sc.Text(), "MemTotal:")
		if !found {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) == 0 {
			return 0
		}
		v, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil || v <= 0 {
			return 0
		}
		if len(fields) > 1 && strings.EqualFold(fields[1], "kB") {
			v *= 1024
		}
		return v
	}
	return 0
}

// ownCgroups parses /proc/self/cgroup and returns the process's cgroup path
// in the v1 memory hierarchy ("N:memory:/path" or a comma list containing
// memory) and in the v2 unified hierarchy ("0::/path").
func ownCgroups(path string) (v1, v2 string) {
	if path == "" {
		return "", ""
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", ""
	}
	for line := range strings.Lines(string(data)) {
		parts := strings.SplitN(strings.TrimSpace(line), ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[0] == "0" && parts[1] == "" {
			v2 = parts[2]
			continue
		}
		for ctrl := range strings.SplitSeq(parts[1], ",") {
			if ctrl == "memory" {
				v1 = parts[2]
			}
		}
	}
	return v1, v2
}
