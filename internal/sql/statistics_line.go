package sql

import (
	"fmt"
)

// StatisticsLine is the answer to COM_STATISTICS (mysqladmin status), in
// MySQL's format. strata keeps no slow-query log and no table cache: slow
// queries and opens are 0, open tables the tables in the catalog.
func (e *Engine) StatisticsLine() string {
	uptime := int64(timeSince(e.StartTime).Seconds())
	questions := e.com.questions.Load()
	tables := 0
	for _, db := range e.Cat.Databases() {
		tables += len(e.Cat.Tables(db))
	}
	qps := 0.0
	if uptime > 0 {
		qps = float64(questions) / float64(uptime)
	}
	return fmt.Sprintf("Uptime: %d  Threads: %d  Questions: %d  Slow queries: 0  Opens: 0  Flush tables: 0  Open tables: %d  Queries per second avg: %.3f",
		uptime, e.connected.Load(), questions, tables, qps)
}
