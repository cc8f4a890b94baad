package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"vitess.io/vitess/go/mysql/replication"

	"github.com/strata-db/strata/internal/backup"
	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/durable"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/replica"
	"github.com/strata-db/strata/internal/sql"
	"github.com/strata-db/strata/internal/txn"
)

// Point-in-time recovery: strata restore --binlog-from DIR [--stop-gtid G |
// --stop-datetime T]. The backup is restored, a marker file records where
// the replay starts, and the binary log is replayed by the replica's
// applier (replica.ReplayFiles), each transaction committed with its
// position; the marker goes once the replay is done. A rerun with the
// marker present resumes the replay instead of restoring.

// pitrMarker is the file in the data directory of a restore whose binlog
// replay has not finished.
const pitrMarker = "strata-pitr.json"

// pitrOptions are the point-in-time flags.
type pitrOptions struct {
	binlogDir string
	stop      replica.ReplayStop
}

// pitrState is the marker's contents.
type pitrState struct {
	Source string           `json:"source_datadir"`
	Start  replica.Position `json:"start"`
}

// parsePITR checks the point-in-time flags.
func parsePITR(dir, gtid, datetime string) (*pitrOptions, error) {
	if dir == "" {
		return nil, errors.New("--stop-gtid and --stop-datetime need --binlog-from DIR")
	}
	if gtid != "" && datetime != "" {
		return nil, errors.New("--stop-gtid and --stop-datetime exclude each other")
	}
	o := &pitrOptions{binlogDir: dir}
	if gtid != "" {
		g, err := replication.ParseMysql56GTID(gtid)
		if err != nil {
			return nil, fmt.Errorf("--stop-gtid %q: want UUID:NUMBER (%v)", gtid, err)
		}
		o.stop.GTID = g
	}
	if datetime != "" {
		var t time.Time
		var err error
		for _, layout := range []string{"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999", "2006-01-02"} {
			if t, err = time.ParseInLocation(layout, datetime, time.Local); err == nil {
				break
			}
		}
		if err != nil {
			if t, err = time.Parse(time.RFC3339Nano, datetime); err != nil {
				return nil, fmt.Errorf("--stop-datetime %q: want 'YYYY-MM-DD HH:MM:SS' or RFC 3339", datetime)
			}
		}
		o.stop.Datetime = t
	}
	return o, nil
}

// startPITR records the replay's start in the restored data directory and
// runs the replay.
func startPITR(datadir string, m *backup.Manifest, o *pitrOptions, stdout, stderr io.Writer) int {
	st := pitrState{Start: replica.Position{File: m.Binlog.File, Pos: m.Binlog.Position, GTID: m.Binlog.GTIDExecuted}}
	if st.Start.GTID != "" {
		st.Start.Flavor = replication.Mysql56FlavorID
	}
	st.Source = m.SourceDatadir
	b, _ := json.MarshalIndent(st, "", "  ")
	if err := durable.WriteFile(filepath.Join(datadir, pitrMarker), append(b, '\n'), 0o644); err != nil {
		fmt.Fprintf(stderr, "strata restore: %v\n", err)
		return 1
	}
	return replayPITR(datadir, st, o, stdout, stderr)
}

// resumePITR resumes an unfinished replay in datadir; resumed is false
// when there is none (datadir holds no marker).
func resumePITR(datadir string, o *pitrOptions, stdout, stderr io.Writer) (resumed bool, code int) {
	b, err := os.ReadFile(filepath.Join(datadir, pitrMarker))
	if os.IsNotExist(err) {
		return false, 0
	}
	var st pitrState
	if err == nil {
		err = json.Unmarshal(b, &st)
	}
	if err != nil {
		fmt.Fprintf(stderr, "strata restore: %s: %v\n", pitrMarker, err)
		return true, 1
	}
	fmt.Fprintf(stdout, "resuming the binary log replay into %s\n", datadir)
	return true, replayPITR(datadir, st, o, stdout, stderr)
}

// replayPITR opens the restored store and replays the binary log into it
// from the stored replay position, or from the marker's start.
func replayPITR(datadir string, st pitrState, o *pitrOptions, stdout, stderr io.Writer) int {
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	db, err := kv.Open(kv.Options{Dir: datadir, MemoryBudget: 512 << 20, Logger: kv.NewSlogLogger(logger)})
	if err != nil {
		fmt.Fprintf(stderr, "strata restore: %v\n", err)
		return 1
	}
	defer db.Close()
	tdb := txn.New(db, txn.Options{})
	cat, err := catalog.Load(tdb)
	if err != nil {
		fmt.Fprintf(stderr, "strata restore: %v\n", err)
		return 1
	}
	eng, err := sql.NewEngine(tdb, cat)
	if err != nil {
		fmt.Fprintf(stderr, "strata restore: %v\n", err)
		return 1
	}
	defer eng.Close()
	if err := eng.UseTmpDir(filepath.Join(datadir, "tmp")); err != nil {
		fmt.Fprintf(stderr, "strata restore: %v\n", err)
		return 1
	}
	ctx := context.Background()
	start := st.Start
	if p, ok, err := replica.ReplayPosition(ctx, tdb); err != nil {
		fmt.Fprintf(stderr, "strata restore: %v\n", err)
		return 1
	} else if ok {
		start = p
	}
	res, err := replica.ReplayFiles(ctx, eng, o.binlogDir, start, o.stop)
	fmt.Fprintf(stdout, "replayed %d transactions from %s:%d to %s:%d", res.Transactions, start.File, start.Pos, res.Pos.File, res.Pos.Pos)
	if res.Pos.GTID != "" {
		fmt.Fprintf(stdout, "; gtid_executed %s", res.Pos.GTID)
	}
	fmt.Fprintln(stdout)
	if err != nil {
		fmt.Fprintf(stderr, "strata restore: %v; run the same command again to resume\n", err)
		return 1
	}
	// Done: the marker goes first (a crash after it leaves only a stale
	// position, which nothing reads without the marker).
	if err := os.Remove(filepath.Join(datadir, pitrMarker)); err != nil {
		fmt.Fprintf(stderr, "strata restore: %v\n", err)
		return 1
	}
	if err := durable.SyncDir(datadir); err != nil {
		fmt.Fprintf(stderr, "strata restore: %v\n", err)
		return 1
	}
	if err := replica.ClearReplayPosition(ctx, tdb); err != nil {
		fmt.Fprintf(stderr, "strata restore: %v\n", err)
		return 1
	}
	return 0
}
