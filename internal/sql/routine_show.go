package sql

import (
	"context"
	"time"

	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// SHOW CREATE PROCEDURE/FUNCTION and SHOW PROCEDURE/FUNCTION STATUS, in
// MySQL 8.0's formats (mysqldump --routines reads both).

// canSeeRoutine reports whether the session may see a routine: any
// routine privilege on its database (root: all).
func (s *Session) canSeeRoutine(r *catalog.Routine) bool {
	sub := s.subject()
	if sub == nil {
		return true
	}
	n := routineNeed(privilege.Execute|privilege.CreateRoutine|privilege.AlterRoutine, r.DB)
	n.Any = true
	return sub.Allowed(n)
}

// showCreateRoutine answers SHOW CREATE PROCEDURE and SHOW CREATE
// FUNCTION.
func (s *Session) showCreateRoutine(kind string, tn sqlparser.TableName) (*sqltypes.Result, error) {
	r, err := s.lookupRoutine(kind, tn.Qualifier.String(), tn.Name.String())
	if err != nil {
		return nil, err
	}
	if !s.canSeeRoutine(r) {
		return nil, sqlerr.New(sqlerr.SPDoesNotExist, "42000", "%s %s does not exist", kind, r.Name)
	}
	title := "Procedure"
	if kind == "FUNCTION" {
		title = "Function"
	}
	return textResult([]string{title, "sql_mode", "Create " + title, "character_set_client", "collation_connection", "Database Collation"},
		[][]string{{r.Name, r.SQLMode, routineCreateText(r), r.CharsetClient, r.CollationConnection, r.DBCollation}}), nil
}

var showRoutineStatusCols = []string{"Db", "Name", "Type", "Definer", "Modified", "Created", "Security_type", "Comment",
	"character_set_client", "collation_connection", "Database Collation"}

// showRoutineStatus answers SHOW PROCEDURE STATUS and SHOW FUNCTION
// STATUS [LIKE 'name pattern' | WHERE ...].
func (s *Session) showRoutineStatus(ctx context.Context, kind string, sh *sqlparser.ShowBasic) (*sqltypes.Result, error) {
	if sh.Filter != nil && sh.Filter.Filter != nil {
		return s.showWhere(ctx, sh)
	}
	like := filterLike(sh.Filter)
	var rows [][]string
	for _, db := range s.eng.Cat.Databases() {
		for _, r := range s.eng.Cat.Routines(db) {
			if r.Type != kind || like != "" && !likeMatch(like, r.Name) || !s.canSeeRoutine(r) {
				continue
			}
			sec := "DEFINER"
			if r.SecurityInvoker {
				sec = "INVOKER"
			}
			rows = append(rows, []string{r.DB, r.Name, r.Type, r.Definer, routineTime(r.Modified), routineTime(r.Created),
				sec, r.Comment, r.CharsetClient, r.CollationConnection, r.DBCollation})
		}
	}
	return textResult(showRoutineStatusCols, rows), nil
}

// routineTime formats a routine's time as SHOW ... STATUS does.
func routineTime(us int64) string {
	return time.UnixMicro(us).Format("2006-01-02 15:04:05")
}
