package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Limits emulate a smaller machine for the engine processes.
type Limits struct {
	// MemBytes is a cgroup memory limit on each engine process (0 = none),
	// like the study's 1/2/8 GB VMs.
	MemBytes int64 `json:"mem_bytes,omitempty"`
	// IOPS throttles reads and writes of each engine process on the data
	// directory's block device (0 = none), like the study's 80-IOPS HDD.
	IOPS int `json:"iops,omitempty"`
}

// cgroupRoot is where cgroup file systems are mounted.
const cgroupRoot = "/sys/fs/cgroup"

// applyLimits puts the server process into fresh cgroups carrying lim and
// returns one note per limit saying what was done or why it could not be
// (best effort: the bench runs on without a limit it cannot set).
func applyLimits(s *Server, lim Limits) []string {
	var notes []string
	if lim.MemBytes > 0 {
		notes = append(notes, s.limitMemory(lim.MemBytes))
	}
	if lim.IOPS > 0 {
		notes = append(notes, s.limitIOPS(lim.IOPS))
	}
	return notes
}

func (s *Server) limitMemory(limit int64) string {
	name := fmt.Sprintf("strata-bench-%s-%d", s.Engine, s.PID())
	v := strconv.FormatInt(limit, 10)
	var dir string
	var err error
	if isCgroup2() {
		dir, err = s.joinCgroup(filepath.Join(cgroupRoot, ownCgroup("")), name, map[string]string{"memory.max": v, "memory.swap.max": "0"}, "cgroup.subtree_control", "+memory")
	} else {
		dir, err = s.joinCgroup(filepath.Join(cgroupRoot, "memory", ownCgroup("memory")), name, map[string]string{"memory.limit_in_bytes": v}, "", "")
	}
	if err != nil {
		return fmt.Sprintf("%s: memory limit %s NOT applied: %v", s.Engine, fmtBytes(float64(limit)), err)
	}
	return fmt.Sprintf("%s: memory limit %s applied (cgroup %s)", s.Engine, fmtBytes(float64(limit)), dir)
}

func (s *Server) limitIOPS(iops int) string {
	dev, err := blockDevice(s.DataDir)
	if err != nil {
		return fmt.Sprintf("%s: IOPS limit %d NOT applied: %v", s.Engine, iops, err)
	}
	name := fmt.Sprintf("strata-bench-io-%s-%d", s.Engine, s.PID())
	n := strconv.Itoa(iops)
	var dir string
	if isCgroup2() {
		dir, err = s.joinCgroup(filepath.Join(cgroupRoot, ownCgroup("")), name,
			map[string]string{"io.max": fmt.Sprintf("%s riops=%s wiops=%s", dev, n, n)}, "cgroup.subtree_control", "+io")
	} else {
		dir, err = s.joinCgroup(filepath.Join(cgroupRoot, "blkio", ownCgroup("blkio")), name,
			map[string]string{"blkio.throttle.read_iops_device": dev + " " + n, "blkio.throttle.write_iops_device": dev + " " + n}, "", "")
	}
	if err != nil {
		return fmt.Sprintf("%s: IOPS limit %d on %s NOT applied: %v", s.Engine, iops, dev, err)
	}
	note := fmt.Sprintf("%s: IOPS limit %d read + %d write on device %s applied (cgroup %s)", s.Engine, iops, iops, dev, dir)
	if !isCgroup2() {
		note += "; cgroup v1 throttles direct I/O and fsync-driven writes, not buffered write-back"
	}
	return note
}

// joinCgroup creates parent/name, enables a controller in parent when
// ctlFile is set, writes files, and moves the server process into it.
func (s *Server) joinCgroup(parent, name string, files map[string]string, ctlFile, ctl string) (string, error) {
	if ctlFile != "" {
		// Best effort: fails when the parent itself holds processes.
		_ = os.WriteFile(filepath.Join(parent, ctlFile), []byte(ctl), 0o644)
	}
	dir := filepath.Join(parent, name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return "", fmt.Errorf("create cgroup: %w", err)
	}
	s.cgroups = append(s.cgroups, dir)
	for f, v := range files {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(v), 0o644); err != nil {
			if strings.HasSuffix(f, "swap.max") { // absent without swap accounting
				continue
			}
			return dir, fmt.Errorf("write %s: %w", f, err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte(strconv.Itoa(s.PID())), 0o644); err != nil {
		return dir, fmt.Errorf("move pid %d: %w", s.PID(), err)
	}
	return dir, nil
}

// isCgroup2 reports whether /sys/fs/cgroup is the unified (v2) hierarchy.
func isCgroup2() bool {
	_, err := os.Stat(filepath.Join(cgroupRoot, "cgroup.controllers"))
	return err == nil
}

// ownCgroup returns this process's cgroup path for a v1 controller, or the
// v2 path for controller "".
func ownCgroup(controller string) string {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "/"
	}
	return cgroupPath(string(b), controller)
}

// cgroupPath picks a controller's path out of /proc/self/cgroup text
// ("ID:controllers:path" lines; v2 is "0::path").
func cgroupPath(text, controller string) string {
	for _, line := range strings.Split(text, "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		if controller == "" && parts[0] == "0" && parts[1] == "" {
			return parts[2]
		}
		for _, c := range strings.Split(parts[1], ",") {
			if controller != "" && c == controller {
				return parts[2]
			}
		}
	}
	return "/"
}

// blockDevice returns "MAJ:MIN" of the whole disk holding path.
func blockDevice(path string) (string, error) {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return "", fmt.Errorf("stat %s: %w", path, err)
	}
	dev := uint64(st.Dev)
	major := (dev>>8)&0xfff | (dev>>32)&^uint64(0xfff)
	minor := dev&0xff | (dev>>12)&^uint64(0xff)
	if major == 0 {
		return "", fmt.Errorf("%s is on a virtual file system (device 0:%d), no block device to throttle", path, minor)
	}
	id := fmt.Sprintf("%d:%d", major, minor)
	sys := filepath.Join("/sys/dev/block", id)
	if _, err := os.Stat(filepath.Join(sys, "partition")); err == nil {
		// /sys/dev/block/M:m links to .../<disk>/<partition>: throttle the disk.
		if real, err := filepath.EvalSymlinks(sys); err == nil {
			if b, err := os.ReadFile(filepath.Join(filepath.Dir(real), "dev")); err == nil {
				id = strings.TrimSpace(string(b))
			}
		}
	}
	return id, nil
}
