package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/sql"
)

// configureSlowLog sets the slow query log's global variables from the
// serve flags: slow_query_log_file defaults, as MySQL's, to
// DATADIR/<host name>-slow.log.
func configureSlowLog(eng *sql.Engine, datadir string, on bool, file string, longQueryTime float64) error {
	if longQueryTime < 0 {
		return fmt.Errorf("--long-query-time %v: must not be negative", longQueryTime)
	}
	if file == "" {
		host, err := os.Hostname()
		if err != nil || host == "" {
			host = "strata"
		}
		host, _, _ = strings.Cut(host, ".")
		file = filepath.Join(datadir, host+"-slow.log")
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return fmt.Errorf("--slow-query-log-file %s: %w", file, err)
	}
	eng.Globals.Set("slow_query_log_file", sqltypes.NewVarChar(abs))
	eng.Globals.Set("long_query_time", sqltypes.MakeTrusted(sqltypes.Float64, strconv.AppendFloat(nil, longQueryTime, 'f', 6, 64)))
	eng.Globals.Set("slow_query_log", boolValue(on))
	return nil
}
