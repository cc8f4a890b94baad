package stress

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Report is the outcome of a Run.
type Report struct {
	Config Config
	// Kills is the number of SIGKILLs sent; Restarts the restarts that
	// came back; Verifications the post-restart verifications that ran
	// (including the initial one).
	Kills, Restarts, Verifications int
	// Transaction outcomes, as seen by the client.
	Acknowledged int64 // COMMIT returned OK
	InDoubt      int64 // connection died during COMMIT
	// InDoubtCommitted and InDoubtAborted split InDoubt by what the next
	// restart showed.
	InDoubtCommitted, InDoubtAborted int64
	Aborted                          int64 // failed before COMMIT
	RolledBack                       int64 // ROLLBACK on purpose
	// XlogRows is the number of committed transactions in the database at
	// the last verification.
	XlogRows int
	// CheckerRounds is the number of successful invariant checks while the
	// workload ran.
	CheckerRounds int64
	// CheckTableRuns counts CHECK TABLE verifications; CheckTableNote says
	// why none ran when the server lacks CHECK TABLE.
	CheckTableRuns int
	CheckTableNote string
	// Violations is the number of violations; ViolationList the first ones.
	Violations    int64
	ViolationList []string
	// UnexpectedErrors counts SQL errors other than deadlocks and lock
	// wait timeouts while the server was up (not violations).
	UnexpectedErrors     int64
	UnexpectedErrorsList []string
	// StopNote says why the run ended early, if it did.
	StopNote  string
	Duration  time.Duration
	DataDir   string
	ServerLog string
}

// OK reports whether the run found no violation.
func (r *Report) OK() bool { return r.Violations == 0 }

func (r *Report) finish(rn *runner, d time.Duration) {
	c := rn.ledger.counts()
	r.Kills, r.Restarts, r.Verifications = rn.kills, rn.restarts, rn.verifications
	r.InDoubtCommitted, r.InDoubtAborted = rn.resolvedCommitted, rn.resolvedAborted
	r.Acknowledged = c[stateAcked]
	r.InDoubt = c[stateInDoubt] + rn.resolvedCommitted + rn.resolvedAborted
	r.Aborted = c[stateAborted] - rn.resolvedAborted
	r.RolledBack = c[stateRolledBack]
	r.XlogRows = rn.xlogRows
	r.CheckerRounds = rn.stats.checkerRounds.Load()
	r.CheckTableRuns = rn.ct.runs
	if rn.ct.unsupported != "" {
		r.CheckTableNote = "CHECK TABLE is not supported by this server (" + rn.ct.unsupported + "): index consistency was NOT verified"
	}
	rn.stats.mu.Lock()
	r.Violations, r.ViolationList = rn.stats.mu.nViolations, append([]string(nil), rn.stats.mu.violations...)
	r.UnexpectedErrors, r.UnexpectedErrorsList = rn.stats.mu.nUnexpected, append([]string(nil), rn.stats.mu.unexpected...)
	rn.stats.mu.Unlock()
	r.StopNote = rn.stopNote
	r.Duration = d
}

// Write prints the report as text.
func (r *Report) Write(w io.Writer) error {
	var b strings.Builder
	verdict := "PASS"
	if !r.OK() {
		verdict = "FAIL"
	}
	c := r.Config
	fmt.Fprintf(&b, "strata stress: %s\n", verdict)
	fmt.Fprintf(&b, "  kills:                   %d of %d (restarts %d, verifications %d)\n", r.Kills, c.Kills, r.Restarts, r.Verifications)
	fmt.Fprintf(&b, "  duration:                %v\n", r.Duration.Round(time.Second))
	fmt.Fprintf(&b, "  workers:                 %d loaders, %d checkers, %d accounts, kill every %v–%v, seed %d\n",
		c.Loaders, max(c.Checkers, 0), c.Accounts, c.MinInterval, c.MaxInterval, c.Seed)
	fmt.Fprintf(&b, "  acknowledged commits:    %d (all present after every restart unless listed below)\n", r.Acknowledged)
	fmt.Fprintf(&b, "  in-doubt commits:        %d (%d found committed, %d found absent; all-or-nothing checked)\n", r.InDoubt, r.InDoubtCommitted, r.InDoubtAborted)
	fmt.Fprintf(&b, "  aborted before COMMIT:   %d\n", r.Aborted)
	fmt.Fprintf(&b, "  rolled back on purpose:  %d\n", r.RolledBack)
	fmt.Fprintf(&b, "  committed in database:   %d xlog rows\n", r.XlogRows)
	fmt.Fprintf(&b, "  checker rounds:          %d\n", r.CheckerRounds)
	if r.CheckTableNote != "" {
		fmt.Fprintf(&b, "  CHECK TABLE:             NOTE: %s\n", r.CheckTableNote)
	} else {
		fmt.Fprintf(&b, "  CHECK TABLE:             %d runs\n", r.CheckTableRuns)
	}
	fmt.Fprintf(&b, "  unexpected SQL errors:   %d\n", r.UnexpectedErrors)
	for _, e := range r.UnexpectedErrorsList {
		fmt.Fprintf(&b, "    - %s\n", e)
	}
	fmt.Fprintf(&b, "  violations:              %d\n", r.Violations)
	for _, v := range r.ViolationList {
		fmt.Fprintf(&b, "    - %s\n", strings.ReplaceAll(v, "\n", "\n      "))
	}
	if r.StopNote != "" {
		fmt.Fprintf(&b, "  note:                    %s\n", r.StopNote)
	}
	fmt.Fprintf(&b, "  data directory:          %s\n", r.DataDir)
	fmt.Fprintf(&b, "  server log:              %s\n", r.ServerLog)
	_, err := io.WriteString(w, b.String())
	return err
}
