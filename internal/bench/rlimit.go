package bench

import (
	"fmt"
	"syscall"
)

// raiseOpenFiles sets this process's soft RLIMIT_NOFILE to its hard limit
// (raising the hard limit to need first when it is lower, which needs
// CAP_SYS_RESOURCE) so that sysbench at --conns connections can open its
// sockets. The Go runtime raises its own soft limit at start but restores
// the original one in every child it starts, unless the program calls
// syscall.Setrlimit itself — which this does, so sysbench, mariadbd and
// strata inherit the raised limit. It returns the soft limit now in force.
func raiseOpenFiles(need uint64) (uint64, error) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0, fmt.Errorf("read the open-files limit: %w", err)
	}
	if lim.Max < need {
		up := syscall.Rlimit{Cur: need, Max: need}
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &up); err == nil {
			return need, nil
		}
	}
	lim.Cur = lim.Max
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0, fmt.Errorf("set the open-files limit to %d: %w", lim.Cur, err)
	}
	if lim.Cur < need {
		return lim.Cur, fmt.Errorf("open-files limit %d is below the %d the connections step needs (raise the hard limit: ulimit -Hn)", lim.Cur, need)
	}
	return lim.Cur, nil
}
