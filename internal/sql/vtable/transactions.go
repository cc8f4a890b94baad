package vtable

import (
	"encoding/hex"
	"strconv"
)

// INNODB_TRX, with MySQL 8.0's columns, lists the open transactions, which
// tools (pt-kill, monitoring queries for long transactions and lock
// waits) read; columns strata has no counterpart for are NULL rather than
// invented (lock structures, tables in use, rows locked or modified, the
// adaptive hash index). STRATA_LOCK_WAITS is the waits-for graph, one row
// per waiting transaction and transaction it waits for (performance_schema
// .data_lock_waits' role; strata has no performance_schema lock tables).
// Both need PROCESS, as InnoDB's tables do.

func init() {
	is := InformationSchema
	define(is, "INNODB_TRX", []string{
		"trx_id bu", "trx_state s13", "trx_started dt", "trx_requested_lock_id s105?",
		"trx_wait_started dt?", "trx_weight bu?", "trx_mysql_thread_id bu", "trx_query s1024?",
		"trx_operation_state s64?", "trx_tables_in_use bu?", "trx_tables_locked bu?",
		"trx_lock_structs bu?", "trx_lock_memory_bytes bu?", "trx_rows_locked bu?",
		"trx_rows_modified bu?", "trx_concurrency_tickets bu?", "trx_isolation_level s16?",
		"trx_unique_checks i?", "trx_foreign_key_checks i?", "trx_last_foreign_key_error s256?",
		"trx_adaptive_hash_latched i?", "trx_adaptive_hash_timeout bu?", "trx_is_read_only i?",
		"trx_autocommit_non_locking i?", "trx_schedule_weight bu?",
	}, innodbTrxRows)
	define(is, "STRATA_LOCK_WAITS", []string{
		"REQUESTING_TRX_ID bu", "REQUESTING_THREAD_ID bu?", "REQUESTED_LOCK_MODE s2",
		"LOCK_KEY t", "WAIT_STARTED dt", "BLOCKING_TRX_ID bu", "BLOCKING_THREAD_ID bu?",
	}, lockWaitsRows)
}

// lockID names a wait's lock in trx_requested_lock_id: the requesting
// transaction and the key, hex.
func lockID(trx uint64, key []byte) string {
	id := strconv.FormatUint(trx, 10) + ":" + hex.EncodeToString(key)
	if len(id) > 105 {
		id = id[:105]
	}
	return id
}

func innodbTrxRows(src Source, out *Rows) error {
	if err := needProcess(src); err != nil {
		return err
	}
	tz := src.TimeZone()
	for _, t := range src.Transactions() {
		state, lockIDv, waitStarted := "RUNNING", any(nil), any(nil)
		if t.Waiting {
			state = "LOCK WAIT"
			lockIDv = lockID(t.ID, t.WaitKey)
			waitStarted = t.WaitStarted.In(tz).Format("2006-01-02 15:04:05")
		}
		var query any
		if t.Query != "" {
			q := t.Query
			if len(q) > 1024 {
				q = q[:1024]
			}
			query = q
		}
		out.Add(t.ID, state, t.Started.In(tz).Format("2006-01-02 15:04:05"), lockIDv,
			waitStarted, nil, uint64(t.ThreadID), query,
			nil, nil, nil,
			nil, nil, nil,
			nil, nil, nil,
			nil, nil, nil,
			nil, nil, nil,
			nil, nil)
	}
	return nil
}

func lockWaitsRows(src Source, out *Rows) error {
	if err := needProcess(src); err != nil {
		return err
	}
	tz := src.TimeZone()
	thread := func(id uint32) any {
		if id == 0 {
			return nil
		}
		return uint64(id)
	}
	for _, w := range src.LockWaits() {
		out.Add(w.Requesting, thread(w.RequestingThread), w.Mode, hex.EncodeToString(w.Key),
			w.Since.In(tz).Format("2006-01-02 15:04:05"), w.Blocking, thread(w.BlockingThread))
	}
	return nil
}
