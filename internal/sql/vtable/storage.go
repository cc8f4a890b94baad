package vtable

import (
	"encoding/hex"
	"fmt"

	"github.com/strata-db/strata/internal/sql/privilege"
)

// The storage engine's tables, strata's counterpart of MyRocks'
// information_schema.ROCKSDB_* tables: STRATA_LSM_LEVELS (one row per
// level), STRATA_SST_FILES (one row per table file of the current version)
// and STRATA_COMPACTIONS (one row: compactions and flushes, done and
// running). Like InnoDB's INNODB_* tables they need the PROCESS privilege
// (1227 without it).

func init() {
	is := InformationSchema
	define(is, "STRATA_LSM_LEVELS", []string{
		"LEVEL i", "SUBLEVELS i", "FILES b", "SIZE b", "SCORE f", "BYTES_IN bu",
		"BYTES_INGESTED bu", "BYTES_MOVED bu", "BYTES_READ bu", "BYTES_FLUSHED bu",
		"BYTES_COMPACTED bu", "TABLES_FLUSHED bu", "TABLES_COMPACTED bu", "TABLES_INGESTED bu",
		"WRITE_AMPLIFICATION f",
	}, lsmLevelsRows)
	define(is, "STRATA_SST_FILES", []string{
		"FILE_NUMBER bu", "FILE_NAME s64", "LEVEL i", "SIZE bu", "SMALLEST_KEY t", "LARGEST_KEY t",
		"SMALLEST_SEQNO bu", "LARGEST_SEQNO bu", "ENTRIES bu", "DELETIONS bu",
		"RAW_KEY_BYTES bu", "RAW_VALUE_BYTES bu", "IS_VIRTUAL s3",
	}, sstFilesRows)
	define(is, "STRATA_COMPACTIONS", []string{
		"COMPACTIONS_COMPLETED b", "COMPACTIONS_RUNNING b", "BYTES_IN_PROGRESS b",
		"ESTIMATED_DEBT bu", "COMPACTION_SECONDS f", "BYTES_COMPACTED bu",
		"FLUSHES_COMPLETED b", "FLUSHES_RUNNING b", "BYTES_FLUSHED bu",
	}, compactionsRows)
}

// needProcess refuses a session without the PROCESS privilege.
func needProcess(src Source) error {
	sub := src.Subject()
	if sub == nil || sub.Allowed(privilege.Need{Level: privilege.Global, Privs: privilege.Process}) {
		return nil
	}
	return privilege.SpecificDenied("PROCESS")
}

func lsmLevelsRows(src Source, out *Rows) error {
	if err := needProcess(src); err != nil {
		return err
	}
	st := src.Storage().EngineStats()
	for _, l := range st.Levels {
		out.Add(l.Level, int64(l.Sublevels), l.Files, l.Size, l.Score, l.BytesIn,
			l.BytesIngested, l.BytesMoved, l.BytesRead, l.BytesFlushed,
			l.BytesCompacted, l.TablesFlushed, l.TablesCompacted, l.TablesIngested,
			l.WriteAmp)
	}
	return nil
}

func sstFilesRows(src Source, out *Rows) error {
	if err := needProcess(src); err != nil {
		return err
	}
	files, err := src.Storage().TableFiles()
	if err != nil {
		return fmt.Errorf("STRATA_SST_FILES: %w", err)
	}
	for _, f := range files {
		virtual := "NO"
		if f.Virtual {
			virtual = "YES"
		}
		out.Add(f.FileNum, fmt.Sprintf("%06d.sst", f.FileNum), f.Level, f.Size,
			hex.EncodeToString(f.Smallest), hex.EncodeToString(f.Largest),
			f.SmallestSeq, f.LargestSeq, f.Entries, f.Deletions,
			f.RawKeyBytes, f.RawValueBytes, virtual)
	}
	return nil
}

func compactionsRows(src Source, out *Rows) error {
	if err := needProcess(src); err != nil {
		return err
	}
	st := src.Storage().EngineStats()
	out.Add(st.Compactions, st.CompactionsInProgress, st.CompactionBytesInProgress,
		st.CompactionDebt, st.CompactionSeconds, st.BytesCompacted,
		st.Flushes, st.FlushesInProgress, st.BytesFlushed)
	return nil
}
