package plan

import (
	"vitess.io/vitess/go/mysql/collations"

	"github.com/strata-db/strata/internal/third_party/evalengine"
)

// Settings is every session setting that parsing and compiling a
// statement read. A cached plan (internal/sql's plan cache, prepared
// statements included) records the settings it was compiled under and is
// reused only while the session's are equal, so a SET of any of them —
// session or global — makes the next execution re-plan. The engine interns
// them: equal settings are one pointer, compared in one step.
//
// Compile-time code reads these fields (internal/sql's Session.plan),
// never the variables themselves; runtime code may read variables
// directly. The current database is checked beside them.
type Settings struct {
	// collation_connection: the collation of literals and of comparisons
	// between them (evalengine.Config.Collation).
	Collation collations.ID
	// character_set_connection: the character set of literals.
	Charset string
	// sql_mode: evalengine.Config.SQLMode (zero dates, division by zero)
	// and the modes that change parsing.
	SQLMode    string
	SQLModeVal evalengine.SQLMode
	// time_zone: constant folding evaluates FROM_UNIXTIME(0),
	// UNIX_TIMESTAMP('...') and the like at compile time
	// (evalengine.Config.VCursor).
	TimeZone string
	// div_precision_increment: the scale of division and AVG results
	// (evalengine.Config.DivPrecisionIncrement).
	DivPrecision int
	// default_week_format and lc_time_names: WEEK() without a mode and the
	// names of DATE_FORMAT, should folding ever evaluate them.
	WeekFormat  string
	LCTimeNames string
}
