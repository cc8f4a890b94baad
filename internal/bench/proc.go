package bench

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// clockTicks is USER_HZ, the unit of utime/stime in /proc/PID/stat; it is
// 100 on every Linux architecture Go supports.
const clockTicks = 100

// ProcCounters are the cumulative resource counters of a process.
type ProcCounters struct {
	CPUSeconds float64 // utime + stime
	WriteBytes int64   // bytes the process caused to be sent to storage
	ReadBytes  int64   // bytes the process caused to be fetched from storage
}

// Sub returns c - o.
func (c ProcCounters) Sub(o ProcCounters) ProcCounters {
	return ProcCounters{CPUSeconds: c.CPUSeconds - o.CPUSeconds, WriteBytes: c.WriteBytes - o.WriteBytes, ReadBytes: c.ReadBytes - o.ReadBytes}
}

// ReadProcCounters reads /proc/PID/stat and /proc/PID/io.
func ReadProcCounters(pid int) (ProcCounters, error) {
	var c ProcCounters
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return c, fmt.Errorf("read process stat: %w", err)
	}
	if c.CPUSeconds, err = parseProcStatCPU(stat); err != nil {
		return c, fmt.Errorf("/proc/%d/stat: %w", pid, err)
	}
	io, err := os.ReadFile(fmt.Sprintf("/proc/%d/io", pid))
	if err != nil {
		return c, fmt.Errorf("read process io: %w", err)
	}
	c.ReadBytes, c.WriteBytes, err = parseProcIO(io)
	if err != nil {
		return c, fmt.Errorf("/proc/%d/io: %w", pid, err)
	}
	return c, nil
}

// parseProcStatCPU returns utime+stime in seconds from /proc/PID/stat. The
// command name (field 2) may hold spaces and parentheses, so fields are
// counted after its last ')'.
func parseProcStatCPU(stat []byte) (float64, error) {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, fmt.Errorf("no command name")
	}
	f := strings.Fields(string(stat[i+1:]))
	// f[0] is field 3 (state); utime is field 14, stime field 15.
	if len(f) < 13 {
		return 0, fmt.Errorf("too few fields")
	}
	u, err1 := strconv.ParseUint(f[11], 10, 64)
	s, err2 := strconv.ParseUint(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("bad utime/stime %q %q", f[11], f[12])
	}
	return float64(u+s) / clockTicks, nil
}

// parseProcIO returns read_bytes and write_bytes of /proc/PID/io.
func parseProcIO(b []byte) (read, write int64, err error) {
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		n, perr := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		switch k {
		case "read_bytes":
			read, err = n, perr
		case "write_bytes":
			write, err = n, perr
		}
		if err != nil {
			return 0, 0, fmt.Errorf("bad %s: %w", k, err)
		}
	}
	return read, write, nil
}

// DiskUsage is `du -s --block-size=1` of dir: allocated bytes of all files
// below it (preallocated-but-sparse files count only what is allocated).
// match, if not nil, restricts the sum to files whose path relative to dir
// it accepts.
func DiskUsage(dir string, match func(rel string) bool) (int64, error) {
	var total int64
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) { // files vanish while a server runs
				return nil
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		if match != nil {
			rel, _ := filepath.Rel(dir, path)
			if !match(rel) {
				return nil
			}
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			total += st.Blocks * 512
		} else {
			total += fi.Size()
		}
		return nil
	})
	if err != nil {
		return total, fmt.Errorf("disk usage of %s: %w", dir, err)
	}
	return total, nil
}
