package sql

import (
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/sql/plan"
	"github.com/strata-db/strata/internal/third_party/evalengine"
)

// planSettings are the settings a plan depends on (plan.Settings).
type planSettings = plan.Settings

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
		Collation:    s.collation(),
		Charset:      get("character_set_connection"),
		SQLMode:      s.sqlMode.raw,
		SQLModeVal:   evalengine.ParseSQLMode(s.sqlMode.raw),
		TimeZone:     get("time_zone"),
		DivPrecision: int(getInt("div_precision_increment", 4)),
		WeekFormat:   get("default_week_format"),
		LCTimeNames:  get("lc_time_names"),
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
