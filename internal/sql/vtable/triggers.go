package vtable

import (
	"time"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/privilege"
)

// information_schema.TRIGGERS: the triggers of the tables on which src
// holds the TRIGGER privilege (as MySQL), ACTION_ORDER counted per table,
// timing and event.

func triggersRows(src Source, out *Rows) error {
	sub := src.Subject()
	userTables(src, func(db string, t *catalog.Table) {
		if len(t.Triggers) == 0 || sub != nil && !sub.Allowed(privilege.OnTable(privilege.Trigger, db, t.Name)) {
			return
		}
		coll := coltype.CollationName(schemaCollation(src.Catalog(), db))
		order := map[string]int{}
		for i := range t.Triggers {
			tr := &t.Triggers[i]
			order[tr.Timing+tr.Event]++
			out.Add("def", db, tr.Name, tr.Event, "def", db, t.Name, order[tr.Timing+tr.Event],
				nil, tr.Body, "ROW", tr.Timing, nil, nil, "OLD", "NEW", TriggerCreated(tr.Created, src.TimeZone()),
				tr.SQLMode, TriggerDefiner(tr.Definer), tr.CharsetClient, tr.CollationConnection, coll)
		}
	})
	return nil
}

// TriggerCreated formats a trigger's creation time (Unix microseconds) as
// MySQL shows it: a TIMESTAMP(2), in the session's time zone loc.
func TriggerCreated(us int64, loc *time.Location) string {
	return time.UnixMicro(us).In(loc).Format("2006-01-02 15:04:05.00")
}

// TriggerDefiner is a trigger's definer as SHOW TRIGGERS and
// information_schema show it (user@host).
func TriggerDefiner(d string) string { return d }
