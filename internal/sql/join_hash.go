package sql

import (
	"github.com/strata-db/strata/internal/sql/plan"
)

// Hash join. A stored table joined to the tables before it by an equality
// that no index serves would be scanned whole for every outer row. Instead
// its rows are read once, hashed on the joined columns (the lookup of
// join_lookup.go, the same as for a materialised table) and each outer row
// reads the rows with its values: MySQL 8's hash join ("Using join buffer
// (hash join)"). The equalities stay among the level's conditions, so the
// hash only narrows the rows they see.
//
// The rows are held in memory up to hashJoinMaxBytes per table; a larger
// table falls back to the scan per outer row (correct, slower) rather than
// growing the server without bound. Locking reads never hash (each row is
// locked and re-read as it is joined).

// hashJoinMaxBytes bounds the rows one hash join holds (a variable for
// the test of the fallback).
var hashJoinMaxBytes = 64 << 20

// hashBuild reads all rows of level i's table once for its hash join. It
// reports false when they do not fit hashJoinMaxBytes (the level then
// scans per outer row).
func (j *joinIter) hashBuild(ex *execCtx, i int) (bool, error) {
	l := &j.level[i]
	src := j.srcs[i]
	sc, err := src.tbl.NewScan(ex.tx, src.path.ix, nil, nil, false, false)
	if err != nil {
		return false, err
	}
	defer sc.Close()
	var rows []Row
	size := 0
	for {
		row, _, ok, err := sc.Next()
		if err != nil {
			return false, err
		}
		j.reads.rndNext++ // as MySQL, the read that finds the end counts
		if !ok {
			break
		}
		if err := ex.Context().Err(); err != nil {
			return false, err
		}
		for _, v := range row {
			size += len(v.Raw()) + 32
		}
		if size > hashJoinMaxBytes {
			return false, nil
		}
		rows = append(rows, copyRow(nil, ex.s.fromStore(src.tbl, row)))
	}
	l.hashRows = rows
	return true, nil
}

// wholeTable reports whether the path reads the whole primary index with no
// key values (a table scan).
func (ap *accessPath) wholeTable() bool {
	return ap.ix.Primary && len(ap.eq) == 0 && !ap.hasRange && ap.tuples == nil && !ap.hasSubIn() && !ap.ordered
}

// joinPreds keeps the equalities whose value reads a column (of a table
// before this one): a hash join needs at least one; equalities with
// constants are hashed with them.
func joinPreds(preds []plan.Predicate) []plan.Predicate {
	joined := false
	for i := range preds {
		if p := &preds[i]; p.Op == "=" && len(p.Vals) == 1 && plan.ReadsColumn(p.Vals[0]) {
			joined = true
		}
	}
	if !joined {
		return nil
	}
	return preds
}
