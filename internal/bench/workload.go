package bench

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

// Driver is implemented by what drives an engine during a step: sysbench.
// The seed's Redmine load does not fit this shape (an application in
// front of the engine, per-operation latencies instead of per-second
// samples) and has its own runner (redmine_load.go).
type Driver interface {
	// Name is the load's name in reports ("sysbench").
	Name() string
	// Prepare loads the initial data into s.
	Prepare(ctx context.Context, s *Server) ([]byte, error)
	// Run drives s with script at threads client threads for d, returning
	// the parsed output and the raw output.
	Run(ctx context.Context, s *Server, script string, threads int, d time.Duration, opts RunOptions) (*SysbenchOutput, []byte, error)
	// Rows counts the rows the load's tables hold now.
	Rows(ctx context.Context, s *Server) (int64, error)
}

// RunOptions vary a step's load from the driver's default.
type RunOptions struct {
	// Uniform draws keys uniformly over the whole tables (sysbench
	// --rand-type=uniform) instead of sysbench's default "special"
	// distribution, which sends 75 % of the accesses to 1 % of the rows —
	// a hot set that fits any cache, and the rows oltp_delete removed first.
	Uniform bool
}

// sysbenchLoad drives Debian's sysbench 1.0 oltp_* scripts.
type sysbenchLoad struct {
	tables, tableSize int
}

func (l sysbenchLoad) Name() string { return "sysbench" }

// commonArgs are the connection and data-set flags of every sysbench call.
func (l sysbenchLoad) commonArgs(s *Server) []string {
	args := []string{
		"--db-driver=mysql",
		"--mysql-host=127.0.0.1",
		"--mysql-port=" + strconv.Itoa(s.Port),
		"--mysql-user=root",
		"--mysql-db=sbtest",
		"--tables=" + strconv.Itoa(l.tables),
		"--table-size=" + strconv.Itoa(l.tableSize),
	}
	if s.Engine == EngineMyRocks {
		args = append(args, "--mysql-storage-engine=rocksdb")
	}
	return args
}

func (l sysbenchLoad) Prepare(ctx context.Context, s *Server) ([]byte, error) {
	if err := s.Exec(ctx, "CREATE DATABASE IF NOT EXISTS sbtest"); err != nil {
		return nil, err
	}
	args := append([]string{"oltp_read_write"}, l.commonArgs(s)...)
	args = append(args, "--threads="+strconv.Itoa(min(l.tables, 4)), "prepare")
	// Loads take seconds per 100k rows; allow a generous bound.
	timeout := 10*time.Minute + time.Duration(l.tables*l.tableSize/1000)*time.Second
	return runTool(ctx, timeout, "sysbench", args...)
}

// Rows sums COUNT(*) over the sbtest tables.
func (l sysbenchLoad) Rows(ctx context.Context, s *Server) (int64, error) {
	var total int64
	for i := 1; i <= l.tables; i++ {
		v, err := s.Query(ctx, fmt.Sprintf("SELECT COUNT(*) FROM sbtest.sbtest%d", i))
		if err != nil {
			return 0, err
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("count of sbtest%d: %q: %w", i, v, err)
		}
		total += n
	}
	return total, nil
}

func (l sysbenchLoad) Run(ctx context.Context, s *Server, script string, threads int, d time.Duration, opts RunOptions) (*SysbenchOutput, []byte, error) {
	args := append([]string{script}, l.commonArgs(s)...)
	if opts.Uniform {
		args = append(args, "--rand-type=uniform")
	}
	args = append(args,
		"--threads="+strconv.Itoa(threads),
		"--time="+strconv.Itoa(int(d.Seconds())),
		"--report-interval=1",
		"--percentile=95",
		"--histogram=on",
		"run")
	raw, err := runTool(ctx, d+2*time.Minute, "sysbench", args...)
	out, perr := ParseSysbench(bytes.NewReader(raw))
	if perr != nil {
		return nil, raw, perr
	}
	if err == nil && !out.Complete {
		err = fmt.Errorf("sysbench printed no final report")
	}
	if err != nil && len(out.Fatal) > 0 {
		err = fmt.Errorf("%w: %s", err, out.Fatal[0])
	}
	return out, raw, err
}

// runTool runs a command in its own process group, killing the group when
// ctx ends or timeout passes, and returns its combined output.
func runTool(ctx context.Context, timeout time.Duration, name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if err != nil {
		if ctx.Err() != nil {
			err = fmt.Errorf("%s: %w", name, ctx.Err())
		} else {
			err = fmt.Errorf("%s: %w", name, err)
		}
	}
	return out.Bytes(), err
}
