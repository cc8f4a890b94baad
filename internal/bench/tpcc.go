package bench

import (
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/strata-db/strata/internal/bench/tpcc"
)

// TPCCRun is the tpcc workload's result on one engine.
type TPCCRun struct {
	Engine    string     `json:"engine"`
	Scale     tpcc.Scale `json:"scale"`
	Terminals int        `json:"terminals"`
	Seconds   float64    `json:"seconds"` // wall time of the timed run
	// TpmC is new-order transactions per minute (those rolled back on the
	// invalid item included); TpmTotal all transactions per minute.
	TpmC     float64  `json:"tpmc"`
	TpmTotal float64  `json:"tpm_total"`
	Tx       []TPCCTx `json:"transactions"`
	// CPUPerTxn and WriteBytesPerTxn are the server's CPU seconds and
	// bytes written over the timed run ÷ completed transactions.
	CPUPerTxn        float64 `json:"cpu_s_per_txn"`
	WriteBytesPerTxn float64 `json:"write_bytes_per_txn"`
	RolledBack       int     `json:"new_orders_rolled_back"`
	Delivered        int     `json:"orders_delivered"`
	// Errors are the first transaction errors (not deadlocks or lock wait
	// timeouts, which are retried); ErrorCount counts them all.
	Errors     []string `json:"errors,omitempty"`
	ErrorCount int      `json:"error_count"`
	// ChecksAfterLoad and ChecksAfterRun are the consistency checks on the
	// loaded database and after the timed run.
	ChecksAfterLoad []tpcc.CheckResult `json:"checks_after_load"`
	ChecksAfterRun  []tpcc.CheckResult `json:"checks_after_run"`
	Error           string             `json:"error,omitempty"`
}

// TPCCTx is one transaction kind's figures.
type TPCCTx struct {
	Name      string  `json:"name"`
	Count     int     `json:"count"`
	Retries   int     `json:"retries"`
	LatMean   float64 `json:"lat_mean_ms"`
	LatP50    float64 `json:"lat_p50_ms"`
	LatP95    float64 `json:"lat_p95_ms"`
	LatP99    float64 `json:"lat_p99_ms"`
	LatMax    float64 `json:"lat_max_ms"`
	PerMinute float64 `json:"per_minute"`
}

// tpccDatabase holds the TPC-C tables on every engine.
const tpccDatabase = "tpcc"

// tpccTables are the TPC-C tables.
var tpccTables = []string{"warehouse", "district", "customer", "history", "new_orders", "orders", "order_line", "item", "stock"}

// maxTPCCErrors is how many transaction errors a TPCCRun keeps.
const maxTPCCErrors = 10

// runTPCC loads each engine in turn, runs the consistency checks, the
// timed transaction mix and the checks again.
func (r *runner) runTPCC() error {
	o := r.o
	if err := r.setup(); err != nil {
		return err
	}
	defer r.prog.close()
	scale := tpcc.Full(o.Warehouses)
	loadPlan := 10*time.Second + time.Duration(o.Warehouses)*40*time.Second
	checkPlan := 5 * time.Second
	r.prog.plan(len(o.Engines), loadPlan)
	r.prog.plan(2*len(o.Engines), checkPlan)
	r.prog.plan(len(o.Engines), o.Time+2*time.Second)
	var errs []error
	for _, e := range o.Engines {
		run := TPCCRun{Engine: e, Scale: scale, Terminals: o.Threads[0]}
		if err := r.tpccEngine(&run, loadPlan, checkPlan); err != nil {
			run.Error = err.Error()
			if r.ctx.Err() != nil {
				r.res.TPCC = append(r.res.TPCC, run)
				return fmt.Errorf("interrupted: %w", err)
			}
			r.prog.logf("strata bench: %s: %v", e, err)
			r.res.Notes = append(r.res.Notes, fmt.Sprintf("%s: %v", EngineLabel(e), err))
			errs = append(errs, fmt.Errorf("%s: %w", e, err))
		}
		r.res.TPCC = append(r.res.TPCC, run)
	}
	return errors.Join(errs...)
}

// tpccEngine starts one engine, loads it, checks it, runs the mix and
// checks it again, filling run.
func (r *runner) tpccEngine(run *TPCCRun, loadPlan, checkPlan time.Duration) (err error) {
	o := r.o
	engine := run.Engine
	r.prog.begin(fmt.Sprintf("%s: start and load TPC-C, %d warehouse(s)", engine, o.Warehouses), loadPlan)
	e, err := r.startTPC(engine, tpccDatabase, tpcc.Schema, tpccTables, run.Terminals+o.LoadWorkers+2, func(db *sql.DB) error {
		return tpcc.Load(r.ctx, db, run.Scale, o.Seed, o.LoadWorkers)
	})
	if e != nil {
		defer r.stopTPC(e, &err)
	}
	if err != nil {
		r.skip(3)
		return err
	}
	s, db := e.s, e.db

	r.prog.begin(engine+": consistency checks after the load", checkPlan)
	run.ChecksAfterLoad, err = tpcc.RunChecks(r.ctx, db, o.QueryTimeout)
	r.prog.end()
	if err != nil {
		return err
	}

	r.prog.begin(fmt.Sprintf("%s: TPC-C mix, %d terminals", engine, run.Terminals), o.Time+2*time.Second)
	before, cerr := ReadProcCounters(s.PID())
	stats, elapsed, err := tpcc.Run(r.ctx, db, run.Scale, run.Terminals, o.Time, o.Seed)
	after, cerr2 := ReadProcCounters(s.PID())
	r.prog.end()
	if err != nil {
		return err
	}
	run.fill(stats, elapsed)
	if cerr == nil && cerr2 == nil && stats.Total() > 0 {
		d := after.Sub(before)
		run.CPUPerTxn = d.CPUSeconds / float64(stats.Total())
		run.WriteBytesPerTxn = float64(d.WriteBytes) / float64(stats.Total())
	}
	if s.Exited() {
		return fmt.Errorf("server exited during the run; log tail:\n%s", s.LogTail())
	}

	r.prog.begin(engine+": consistency checks after the run", checkPlan)
	run.ChecksAfterRun, err = tpcc.RunChecks(r.ctx, db, o.QueryTimeout)
	r.prog.end()
	return err
}

// fill derives run's figures from the terminals' counts.
func (run *TPCCRun) fill(st *tpcc.Stats, elapsed time.Duration) {
	run.Seconds = elapsed.Seconds()
	run.TpmC = st.NewOrdersPerMinute(elapsed)
	run.TpmTotal = float64(st.Total()) / elapsed.Minutes()
	run.RolledBack, run.Delivered = st.RolledBack, st.Delivered
	run.ErrorCount = len(st.Errors)
	run.Errors = st.Errors[:min(len(st.Errors), maxTPCCErrors)]
	for k, name := range tpcc.TxNames {
		lat := make([]float64, len(st.Latencies[k]))
		for i, d := range st.Latencies[k] {
			lat[i] = float64(d) / float64(time.Millisecond)
		}
		tx := TPCCTx{Name: name, Count: len(lat), Retries: st.Retries[k], PerMinute: float64(len(lat)) / elapsed.Minutes()}
		if len(lat) > 0 {
			sp := SpreadOf(lat)
			tx.LatMean, tx.LatP50, tx.LatMax = Mean(lat), sp.Median, sp.Max
			tx.LatP95, tx.LatP99 = Percentile(lat, 95), Percentile(lat, 99)
		}
		run.Tx = append(run.Tx, tx)
	}
}
