package sql

import (
	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/third_party/evalengine"
)

// planSettings is every session setting that parsing and compiling a
// statement read. A cached plan (cachedPlan, prepared statements included)
// records the settings it was compiled under and is reused only while the
// session's are equal, so a SET of any of them — session or global — makes
// the next execution re-plan.
//
// Compile-time code reads these fields (Session.plan), never the variables
// themselves; runtime code may read variables directly. The current
// database is checked beside them (cachedPlan.db).
type planSettings struct {
	// collation_connection: the collation of literals and of comparisons
	// between them (evalengine.Config.Collation).
	collation collations.ID
	// character_set_connection: the character set of literals.
	charset string
	// sql_mode: evalengine.Config.SQLMode (zero dates, division by zero)
	// and the modes that change parsing.
	sqlMode    string
	sqlModeVal evalengine.SQLMode
	// time_zone: constant folding evaluates FROM_UNIXTIME(0),
	// UNIX_TIMESTAMP('...') and the like at compile time
	// (evalengine.Config.VCursor).
	timeZone string
	// div_precision_increment: the scale of division and AVG results
	// (evalengine.Config.DivPrecisionIncrement).
	divPrecision int
	// default_week_format and lc_time_names: WEEK() without a mode and the
	// names of DATE_FORMAT, should folding ever evaluate them.
	weekFormat  string
	lcTimeNames string
}

// plan returns the session's current planSettings, interned: sessions
// (and one session at different times) under equal settings get the same
// pointer, so a cached plan is checked with one comparison. It re-reads the
// variables only after a SET (session or global) since the last call.
func (s *Session) plan() *planSettings {
	if s.planOK && s.planGlobals == s.eng.Globals.Version() {
		return s.planSet
	}
	s.planGlobals = s.eng.Globals.Version()
	get := func(n string) string { v, _ := s.sysVar(n); return v.ToString() }
	getInt := func(n string, def int64) int64 {
		v, _ := s.sysVar(n)
		if i, err := v.ToInt64(); err == nil {
			return i
		}
		return def
	}
	s.planSet = s.eng.internSettings(planSettings{
		collation:    s.collation(),
		charset:      get("character_set_connection"),
		sqlMode:      s.sqlMode.raw,
		sqlModeVal:   evalengine.ParseSQLMode(s.sqlMode.raw),
		timeZone:     get("time_zone"),
		divPrecision: int(getInt("div_precision_increment", 4)),
		weekFormat:   get("default_week_format"),
		lcTimeNames:  get("lc_time_names"),
	})
	s.planOK = true
	return s.planSet
}

// maxInternedSettings bounds the engine's table of distinct plan settings
// (each SET of a new combination adds one); past it the table starts over,
// which only costs plans cached under the forgotten entries a re-plan.
const maxInternedSettings = 1024

// internSettings returns the engine's one *planSettings equal to ps.
func (e *Engine) internSettings(ps planSettings) *planSettings {
	e.settingsMu.Lock()
	defer e.settingsMu.Unlock()
	if p := e.settings[ps]; p != nil {
		return p
	}
	if e.settings == nil || len(e.settings) >= maxInternedSettings {
		e.settings = map[planSettings]*planSettings{}
	}
	p := &ps
	e.settings[ps] = p
	return p
}

// setVar sets a session variable; every session write goes through here so
// the plan settings are re-read.
func (s *Session) setVar(name string, v sqltypes.Value) {
	s.planOK = false
	s.vars[name] = v
}
