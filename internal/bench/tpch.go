package bench

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/strata-db/strata/internal/bench/query"
	"github.com/strata-db/strata/internal/bench/tpch"
)

// TPCHRun is the tpch workload's result on one engine.
type TPCHRun struct {
	Engine  string         `json:"engine"`
	Rows    map[string]int `json:"rows"` // rows loaded per table
	Queries []TPCHQuery    `json:"queries"`
}

// TPCHQuery is one query's result on one engine.
type TPCHQuery struct {
	N    int    `json:"n"`
	Name string `json:"name"`
	// Runs are the --reps runs of the query.
	Runs []query.Outcome `json:"runs"`
	// Status is query.OK when every run succeeded, else the first failed
	// run's status; Error its message.
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
	// Seconds is the median wall time of the successful runs (from
	// sending the query to reading its last row).
	Seconds float64 `json:"seconds"`
	// CPUSeconds is the server's CPU time (utime+stime) over the runs ÷ runs.
	CPUSeconds float64 `json:"cpu_seconds"`
	ResultRows int     `json:"result_rows"`
	// Match is the comparison with the reference engine's result: "same",
	// "differs", or "" when there was nothing to compare; Diff the first
	// difference.
	Match string `json:"match,omitempty"`
	Diff  string `json:"diff,omitempty"`
}

// Comparison outcomes of TPCHQuery.Match.
const (
	matchSame    = "same"
	matchDiffers = "differs"
)

// tpchDatabase holds the TPC-H tables on every engine.
const tpchDatabase = "tpch"

// tpchReference is the engine whose results the others are compared with.
func tpchReference(engines []string) string {
	for _, e := range []string{EngineInnoDB, EngineMyRocks} {
		if slices.Contains(engines, e) {
			return e
		}
	}
	return ""
}

// runTPCH loads the TPC-H data into each engine in turn, runs the queries
// and compares every engine's results with the reference engine's.
func (r *runner) runTPCH() error {
	o := r.o
	if err := r.setup(); err != nil {
		return err
	}
	defer r.prog.close()
	gen, err := tpch.NewGenerator(o.ScaleFactor, o.Seed)
	if err != nil {
		return err
	}
	queries := tpch.Queries(o.ScaleFactor)
	loadPlan := 10*time.Second + time.Duration(o.ScaleFactor*8.66e5/5000)*time.Second
	r.prog.plan(len(o.Engines), loadPlan)
	r.prog.plan(len(o.Engines)*len(o.Queries)*o.Reps, queryPlan(o.ScaleFactor))

	results := map[string]map[int]*query.Result{} // engine → query → rows
	var errs []error
	for _, e := range o.Engines {
		results[e] = map[int]*query.Result{}
		if err := r.tpchEngine(e, gen, queries, loadPlan, results[e]); err != nil {
			if r.ctx.Err() != nil {
				return fmt.Errorf("interrupted: %w", err)
			}
			r.prog.logf("strata bench: %s: %v", e, err)
			r.res.Notes = append(r.res.Notes, fmt.Sprintf("%s: %v", EngineLabel(e), err))
			errs = append(errs, fmt.Errorf("%s: %w", e, err))
		}
	}
	compareTPCH(r.res.TPCH, tpchReference(o.Engines), results, queries)
	return errors.Join(errs...)
}

// queryPlan is the planned time of one TPC-H query (for the ETA).
func queryPlan(sf float64) time.Duration { return time.Duration(1+sf*30) * time.Second }

// tpchEngine starts one engine, loads it and runs the queries, keeping
// their results in results.
func (r *runner) tpchEngine(engine string, gen *tpch.Generator, queries []tpch.Query, loadPlan time.Duration, results map[int]*query.Result) (err error) {
	o := r.o
	cells := len(o.Queries) * o.Reps
	r.prog.begin(fmt.Sprintf("%s: start and load TPC-H SF %g", engine, o.ScaleFactor), loadPlan)
	run := TPCHRun{Engine: engine}
	e, err := r.startTPC(engine, tpchDatabase, tpch.Schema, tpch.Tables, 2+o.LoadWorkers, func(db *sql.DB) error {
		var err error
		run.Rows, err = tpch.Load(r.ctx, db, gen, o.LoadWorkers)
		return err
	})
	if e != nil {
		defer r.stopTPC(e, &err)
	}
	if err != nil {
		r.skip(cells)
		return err
	}
	defer func() { r.res.TPCH = append(r.res.TPCH, run) }()
	for _, q := range queries {
		if !slices.Contains(o.Queries, q.N) {
			continue
		}
		tq, res, err := r.tpchQuery(e.s, e.db, q)
		run.Queries = append(run.Queries, tq)
		if res != nil {
			results[q.N] = res
			writeResult(filepath.Join(o.Out, "raw", fmt.Sprintf("%s-q%02d.tsv", engine, q.N)), res)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// tpchQuery runs q --reps times on s. It returns an error only when the
// engine cannot go on (it died, or the run was interrupted); the query's
// record is valid then too.
func (r *runner) tpchQuery(s *Server, db *sql.DB, q tpch.Query) (TPCHQuery, *query.Result, error) {
	tq := TPCHQuery{N: q.N, Name: q.Name, Status: query.OK}
	var res *query.Result
	var secs []float64
	before, _ := ReadProcCounters(s.PID())
	for rep := 1; rep <= r.o.Reps; rep++ {
		label := fmt.Sprintf("%s Q%d (%s)", s.Engine, q.N, q.Name)
		if r.o.Reps > 1 {
			label += fmt.Sprintf(" rep %d/%d", rep, r.o.Reps)
		}
		r.prog.begin(label, queryPlan(r.o.ScaleFactor))
		out, err := query.Run(r.ctx, db, q.SQL, r.o.QueryTimeout)
		r.prog.end()
		if err != nil {
			tq.Status, tq.Error = query.Failed, err.Error()
			return tq, nil, err
		}
		tq.Runs = append(tq.Runs, out)
		if out.Status != query.OK {
			if tq.Status == query.OK {
				tq.Status, tq.Error = out.Status, out.Error
			}
			r.prog.logf("strata bench: %s: %s %s", label, out.Status, clipError(out.Error))
		} else {
			secs = append(secs, out.Seconds)
			if res == nil {
				res = out.Result
			}
		}
		if s.Exited() {
			tq.Status, tq.Error = query.Failed, "server exited; log tail: "+s.LogTail()
			return tq, res, fmt.Errorf("server exited during Q%d; log tail:\n%s", q.N, s.LogTail())
		}
	}
	if after, err := ReadProcCounters(s.PID()); err == nil {
		tq.CPUSeconds = after.Sub(before).CPUSeconds / float64(r.o.Reps)
	}
	if len(secs) > 0 {
		tq.Seconds = SpreadOf(secs).Median
	}
	if res != nil {
		tq.ResultRows = len(res.Rows)
	}
	return tq, res, nil
}

// compareTPCH compares every engine's query results with the reference
// engine's and records the outcome in runs.
func compareTPCH(runs []TPCHRun, ref string, results map[string]map[int]*query.Result, queries []tpch.Query) {
	if ref == "" {
		return
	}
	keys := map[int][]int{}
	for _, q := range queries {
		keys[q.N] = q.OrderKeys
	}
	for i := range runs {
		if runs[i].Engine == ref {
			continue
		}
		for j := range runs[i].Queries {
			q := &runs[i].Queries[j]
			want, got := results[ref][q.N], results[runs[i].Engine][q.N]
			if want == nil || got == nil {
				continue
			}
			if ok, diff := query.Compare(want, got, keys[q.N]); ok {
				q.Match = matchSame
			} else {
				q.Match, q.Diff = matchDiffers, diff
			}
		}
	}
}

// writeResult writes a result as tab-separated text (header first).
func writeResult(path string, res *query.Result) {
	var b strings.Builder
	b.WriteString(strings.Join(res.Columns, "\t"))
	b.WriteByte('\n')
	for _, row := range res.Rows {
		b.WriteString(strings.Join(row, "\t"))
		b.WriteByte('\n')
	}
	_ = os.WriteFile(path, []byte(b.String()), 0o644)
}
