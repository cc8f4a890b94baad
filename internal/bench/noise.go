package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/strata-db/strata/internal/proc"
)

// Disk-noise levels of the seed study, in report order.
var NoiseLevels = []string{"none", "25%", "x1", "x2", "x4"}

// Noise is a disk-noise level resolved against the measured disk: Jobs
// concurrent fio jobs doing 4 KiB 50/50 random read/write with O_DIRECT,
// each capped at RateIOPS reads and RateIOPS writes per second (0 = no cap).
type Noise struct {
	Name     string `json:"name"`
	Jobs     int    `json:"jobs"`
	RateIOPS int    `json:"rate_iops_per_direction,omitempty"`
}

// NoisePlan resolves a level name against soloIOPS, the total (read+write)
// IOPS one unthrottled fio job reached alone: "none" runs nothing, "25%" one
// job capped at a quarter of soloIOPS in total (fio's --rate_iops caps each
// direction, so half of that quarter per direction), "xN" N unthrottled jobs.
func NoisePlan(name string, soloIOPS float64) (Noise, error) {
	switch name {
	case "none":
		return Noise{Name: name}, nil
	case "25%":
		if soloIOPS <= 0 {
			return Noise{}, fmt.Errorf("noise 25%%: the solo IOPS were not measured")
		}
		return Noise{Name: name, Jobs: 1, RateIOPS: max(1, int(math.Round(soloIOPS/4/2)))}, nil
	}
	if len(name) > 1 && name[0] == 'x' {
		if n, err := strconv.Atoi(name[1:]); err == nil && n > 0 && n <= 64 {
			return Noise{Name: name, Jobs: n}, nil
		}
	}
	return Noise{}, fmt.Errorf("unknown noise level %q (want none, 25%%, x1, x2, x4, …)", name)
}

// TotalIOPSCap is the total IOPS the level is capped at (0 = uncapped).
func (n Noise) TotalIOPSCap() int { return n.Jobs * n.RateIOPS * 2 }

// fioNoise runs fio noise jobs against one file.
type fioNoise struct {
	file     string
	size     string
	ioengine string // libaio, or psync when libaio/O_DIRECT fail
}

// fioArgs is the fio command line for jobs jobs with an optional rate cap
// running for runtime (0 = until stopped).
func (f *fioNoise) fioArgs(name string, jobs, rate int, runtime time.Duration) []string {
	args := []string{
		"--name=" + name,
		"--filename=" + f.file,
		"--size=" + f.size,
		"--rw=randrw", "--rwmixread=50",
		"--bs=4k", "--direct=1",
		"--ioengine=" + f.ioengine, "--iodepth=1",
		"--numjobs=" + strconv.Itoa(jobs),
		"--group_reporting",
		"--time_based",
	}
	if runtime > 0 {
		args = append(args, "--runtime="+strconv.Itoa(int(runtime.Seconds())), "--output-format=json")
	} else {
		args = append(args, "--runtime=1000000")
	}
	if rate > 0 {
		args = append(args, fmt.Sprintf("--rate_iops=%d,%d", rate, rate))
	}
	return args
}

// calibrate lays out the noise file and measures the total IOPS of one
// unthrottled job over d.
func (f *fioNoise) calibrate(ctx context.Context, d time.Duration) (float64, error) {
	var lastErr error
	for _, eng := range []string{"libaio", "psync"} {
		f.ioengine = eng
		cmd := exec.CommandContext(ctx, "fio", f.fioArgs("calibrate", 1, 0, d)...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			lastErr = fmt.Errorf("fio (%s): %w: %s", eng, err, errb.String())
			continue
		}
		iops, err := parseFioIOPS(out.Bytes())
		if err != nil {
			lastErr = err
			continue
		}
		return iops, nil
	}
	return 0, lastErr
}

// parseFioIOPS returns read+write IOPS summed over the jobs of fio's JSON
// output (anything before the first '{' — warnings — is skipped).
func parseFioIOPS(b []byte) (float64, error) {
	if i := bytes.IndexByte(b, '{'); i > 0 {
		b = b[i:]
	}
	var v struct {
		Jobs []struct {
			Read  struct{ IOPS float64 } `json:"read"`
			Write struct{ IOPS float64 } `json:"write"`
		} `json:"jobs"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return 0, fmt.Errorf("parse fio JSON: %w", err)
	}
	if len(v.Jobs) == 0 {
		return 0, fmt.Errorf("fio JSON has no jobs")
	}
	total := 0.0
	for _, j := range v.Jobs {
		total += j.Read.IOPS + j.Write.IOPS
	}
	return total, nil
}

// runningNoise is a started noise level.
type runningNoise struct {
	p *proc.Process // nil for "none"
}

// start launches the level's fio jobs in their own process group (nothing
// for "none"); logDir/fio-noise.log holds the output of the latest level.
func (f *fioNoise) start(n Noise, logDir string) (*runningNoise, error) {
	if n.Jobs == 0 {
		return &runningNoise{}, nil
	}
	log := filepath.Join(logDir, "fio-noise.log")
	_ = os.Remove(log)
	p, err := proc.Start(proc.Spec{Path: "fio", Args: f.fioArgs("noise", n.Jobs, n.RateIOPS, 0), LogPath: log})
	if err != nil {
		return nil, err
	}
	return &runningNoise{p: p}, nil
}

// stop ends the noise jobs (SIGTERM to the group, SIGKILL after 5 s).
func (r *runningNoise) stop() {
	if r == nil || r.p == nil {
		return
	}
	_ = r.p.Stop(5 * time.Second)
}
