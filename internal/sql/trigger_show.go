package sql

import (
	"sort"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/sql/vtable"
)

// SHOW TRIGGERS and SHOW CREATE TRIGGER (information_schema.TRIGGERS is
// vtable/triggers.go).

// canSeeTrigger reports whether the session holds TRIGGER on db.table
// (MySQL lists only those triggers).
func (s *Session) canSeeTrigger(db, table string) bool {
	sub := s.subject()
	return sub == nil || sub.Allowed(privilege.OnTable(privilege.Trigger, db, table))
}

// showTriggers answers SHOW TRIGGERS [FROM db] [LIKE 'table pattern'].
func (s *Session) showTriggers(sh *sqlparser.ShowBasic) (*sqltypes.Result, error) {
	db, err := s.dbOrCurrent(sh.DbName)
	if err != nil {
		return nil, err
	}
	if s.eng.Cat.Database(db) == nil {
		if isSystemSchema(db) {
			return textResult(showTriggerCols, nil), nil
		}
		return nil, sqlerr.New(sqlerror.ERBadDb, sqlerror.SSClientError, "Unknown database '%s'", db)
	}
	like := filterLike(sh.Filter)
	coll := coltype.CollationName(s.dbCollation(db))
	tables := s.eng.Cat.Tables(db)
	sort.Slice(tables, func(i, j int) bool { return tables[i].Name < tables[j].Name })
	var rows [][]string
	for _, t := range tables {
		if len(t.Triggers) == 0 || like != "" && !likeMatch(like, t.Name) || !s.canSeeTrigger(db, t.Name) {
			continue
		}
		for _, ev := range [...]string{"INSERT", "UPDATE", "DELETE"} {
			for _, tm := range [...]string{"BEFORE", "AFTER"} {
				for _, tr := range t.TriggersFor(tm, ev) {
					rows = append(rows, []string{tr.Name, tr.Event, t.Name, tr.Body, tr.Timing,
						vtable.TriggerCreated(tr.Created, s.zone().Location()), tr.SQLMode, vtable.TriggerDefiner(tr.Definer),
						tr.CharsetClient, tr.CollationConnection, coll})
				}
			}
		}
	}
	return textResult(showTriggerCols, rows), nil
}

var showTriggerCols = []string{"Trigger", "Event", "Table", "Statement", "Timing", "Created", "sql_mode",
	"Definer", "character_set_client", "collation_connection", "Database Collation"}

// dbCollation is a database's default collation.
func (s *Session) dbCollation(db string) collations.ID {
	if d := s.eng.Cat.Database(db); d != nil && d.Collation != 0 {
		return d.Collation
	}
	return coltype.DefaultCollation
}

// showCreateTrigger answers SHOW CREATE TRIGGER [db.]name.
func (s *Session) showCreateTrigger(tn sqlparser.TableName) (*sqltypes.Result, error) {
	db, err := s.dbOrCurrent(tn.Qualifier)
	if err != nil {
		return nil, err
	}
	t := s.eng.Cat.TriggerTable(db, tn.Name.String())
	if t == nil {
		return nil, sqlerr.New(sqlerr.TrgDoesNotExist, sqlerror.SSUnknownSQLState, "Trigger does not exist")
	}
	if err := s.authorizeNeeds(privilege.OnTable(privilege.Trigger, db, t.Name)); err != nil {
		return nil, err
	}
	tr := &t.Triggers[t.TriggerIndex(tn.Name.String())]
	return textResult([]string{"Trigger", "sql_mode", "SQL Original Statement", "character_set_client",
		"collation_connection", "Database Collation", "Created"},
		[][]string{{tr.Name, tr.SQLMode, triggerStatement(t, tr), tr.CharsetClient, tr.CollationConnection,
			coltype.CollationName(s.dbCollation(db)), vtable.TriggerCreated(tr.Created, s.zone().Location())}}), nil
}

// triggerStatement is the CREATE TRIGGER statement of tr as MySQL shows
// it (and mysqldump replays it).
func triggerStatement(t *catalog.Table, tr *catalog.Trigger) string {
	return "CREATE DEFINER=" + quoteDefiner(tr.Definer) + " TRIGGER " + coltype.QuoteIdent(tr.Name) + " " +
		tr.Timing + " " + tr.Event + " ON " + coltype.QuoteIdent(t.Name) + " FOR EACH ROW " + tr.Body
}
