package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// Machine describes where the bench ran.
type Machine struct {
	Hostname string `json:"hostname"`
	CPUs     int    `json:"cpus"`
	CPUModel string `json:"cpu_model"`
	MemBytes int64  `json:"mem_bytes"`
	Kernel   string `json:"kernel"`
	OS       string `json:"os"`
	Disk     string `json:"disk"` // device of the work directory
	Cgroup   string `json:"cgroup"`
	Go       string `json:"go"`
}

// describeMachine gathers the machine description; workdir locates the
// disk the data directories live on.
func describeMachine(workdir string) Machine {
	m := Machine{CPUs: runtime.NumCPU(), Go: runtime.Version(), Cgroup: "v1"}
	m.Hostname, _ = os.Hostname()
	if isCgroup2() {
		m.Cgroup = "v2"
	}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPUModel = strings.TrimSpace(v)
				break
			}
		}
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if f := strings.Fields(l); len(f) >= 2 && f[0] == "MemTotal:" {
				kb, _ := strconv.ParseInt(f[1], 10, 64)
				m.MemBytes = kb << 10
			}
		}
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(b))
	}
	if b, err := os.ReadFile("/etc/os-release"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "PRETTY_NAME="); ok {
				m.OS = strings.Trim(v, `"`)
			}
		}
	}
	m.Disk = describeDisk(workdir)
	return m
}

// describeDisk names the block device holding dir, its size and whether the
// kernel thinks it rotates.
func describeDisk(dir string) string {
	id, err := blockDevice(dir)
	if err != nil {
		return "unknown (" + err.Error() + ")"
	}
	real, err := filepath.EvalSymlinks(filepath.Join("/sys/dev/block", id))
	if err != nil {
		return id
	}
	name := filepath.Base(real)
	desc := fmt.Sprintf("/dev/%s (%s)", name, id)
	if b, err := os.ReadFile(filepath.Join(real, "size")); err == nil {
		if sectors, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil {
			desc += ", " + fmtBytes(float64(sectors*512))
		}
	}
	if b, err := os.ReadFile(filepath.Join(real, "queue", "rotational")); err == nil {
		if strings.TrimSpace(string(b)) == "1" {
			desc += ", rotational (kernel flag)"
		} else {
			desc += ", non-rotational (kernel flag)"
		}
	}
	if b, err := os.ReadFile(filepath.Join(real, "device", "model")); err == nil {
		desc += ", " + strings.TrimSpace(string(b))
	} else if strings.HasPrefix(name, "vd") {
		desc += ", virtio"
	}
	return desc
}

// loadAvg1 is the machine's 1-minute load average (0 if unknown): a load
// well above the CPU count during a step means something else competed.
func loadAvg1() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0
	}
	v, _ := strconv.ParseFloat(f[0], 64)
	return v
}
