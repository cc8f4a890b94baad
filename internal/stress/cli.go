package stress

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

// Usage describes `strata stress`.
const Usage = `Usage: strata stress [flags]

Runs the crash loop: loader and checker connections against a strata server
that is killed with SIGKILL every few seconds and restarted, verifying after
each restart that no acknowledged transaction was lost, no partial one is
visible, the invariants hold and CHECK TABLE reports OK. Exits 1 on any
violation.

Flags:
  --kills N          kill -9 cycles (default 10)
  --loaders N        loader connections (default 4)
  --checkers N       checker connections (default 2; 0 for none)
  --accounts N       accounts to move money between (default 100)
  --interval D[-D]   time from workload start to kill, random in the range
                     (default 2s-5s)
  --duration D       no new cycle starts after D (default 0 = unbounded)
  --out FILE         also write the report to FILE
  --binary PATH      strata binary to run as the server (default: this one)
  --datadir DIR      server data directory (default: a temporary directory,
                     removed after a passing run)
  --keep             keep the temporary data directory and server log
  --port N           server port (default: a free loopback port)
  --seed N           random seed (default: time-based; printed)
  --quiet            no progress lines
`

// Main runs `strata stress` with args (after the subcommand name) and
// returns the exit code: 0 pass, 1 violations, 2 usage or setup error.
func Main(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("stress", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {} // printed below, to stdout for --help
	var cfg Config
	fs.IntVar(&cfg.Kills, "kills", 10, "")
	fs.IntVar(&cfg.Loaders, "loaders", 4, "")
	checkers := fs.Int("checkers", 2, "")
	fs.IntVar(&cfg.Accounts, "accounts", 100, "")
	interval := fs.String("interval", "2s-5s", "")
	fs.DurationVar(&cfg.Duration, "duration", 0, "")
	out := fs.String("out", "", "")
	fs.StringVar(&cfg.Binary, "binary", "", "")
	fs.StringVar(&cfg.DataDir, "datadir", "", "")
	fs.BoolVar(&cfg.Keep, "keep", false, "")
	fs.IntVar(&cfg.Port, "port", 0, "")
	fs.Uint64Var(&cfg.Seed, "seed", 0, "")
	quiet := fs.Bool("quiet", false, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, Usage)
			return 0
		}
		fmt.Fprint(stderr, Usage)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "strata stress: unexpected argument %q\n\n%s", fs.Arg(0), Usage)
		return 2
	}
	var err error
	if cfg.MinInterval, cfg.MaxInterval, err = ParseInterval(*interval); err != nil {
		fmt.Fprintf(stderr, "strata stress: --interval: %v\n", err)
		return 2
	}
	if cfg.Kills < 1 || cfg.Loaders < 1 || cfg.Accounts < 2 || *checkers < 0 {
		fmt.Fprintf(stderr, "strata stress: --kills and --loaders must be ≥ 1, --accounts ≥ 2, --checkers ≥ 0\n")
		return 2
	}
	cfg.Checkers = *checkers
	if cfg.Checkers == 0 {
		cfg.Checkers = -1
	}
	if cfg.Binary == "" {
		if cfg.Binary, err = os.Executable(); err != nil {
			fmt.Fprintf(stderr, "strata stress: cannot find this executable (use --binary): %v\n", err)
			return 2
		}
	}
	if !*quiet {
		cfg.Log = stderr
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := Run(ctx, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return 2
	}
	_ = rep.Write(stdout)
	if *out != "" {
		f, err := os.Create(*out)
		if err == nil {
			fmt.Fprintf(f, "command: strata stress %s\n", strings.Join(args, " "))
			err = rep.Write(f)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "strata stress: --out: %v\n", err)
			return 2
		}
	}
	if !rep.OK() {
		return 1
	}
	return 0
}

// ParseInterval parses "D" or "D1-D2" (Go durations) into a range.
func ParseInterval(s string) (lo, hi time.Duration, err error) {
	a, b, ranged := strings.Cut(strings.TrimSpace(s), "-")
	if lo, err = time.ParseDuration(strings.TrimSpace(a)); err != nil {
		return 0, 0, err
	}
	hi = lo
	if ranged {
		if hi, err = time.ParseDuration(strings.TrimSpace(b)); err != nil {
			return 0, 0, err
		}
	}
	if lo <= 0 || hi < lo {
		return 0, 0, fmt.Errorf("%q: want 0 < min ≤ max", s)
	}
	return lo, hi, nil
}
