package bench

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// GroupCPU is the CPU time (utime+stime, seconds) of every live process
// in process group pgid: an application server and the workers it forked
// (puma's cluster). Processes that exited are not counted, so take it
// around a span in which the group's processes live throughout.
func GroupCPU(pgid int) (float64, error) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0, fmt.Errorf("group CPU: %w", err)
	}
	total, found := 0.0, false
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // exited meanwhile
		}
		g, cpu, err := parseProcStatGroupCPU(stat)
		if err != nil || g != pgid {
			continue
		}
		total += cpu
		found = true
	}
	if !found {
		return 0, fmt.Errorf("group CPU: no process in group %d", pgid)
	}
	return total, nil
}

// parseProcStatGroupCPU returns the process group (field 5) and
// utime+stime in seconds of a /proc/PID/stat.
func parseProcStatGroupCPU(stat []byte) (int, float64, error) {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, 0, fmt.Errorf("no command name")
	}
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 3 {
		return 0, 0, fmt.Errorf("too few fields")
	}
	g, err := strconv.Atoi(f[2]) // f[0] is field 3 (state), f[2] field 5
	if err != nil {
		return 0, 0, fmt.Errorf("bad process group %q", f[2])
	}
	cpu, err := parseProcStatCPU(stat)
	return g, cpu, err
}
