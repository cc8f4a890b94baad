package sysvar

// read_only and super_read_only are settable with SET GLOBAL (MySQL: the
// server refuses writes of accounts without SUPER or CONNECTION_ADMIN,
// or of all accounts; internal/sql/replica.go enforces them, the
// replica's applier excepted). super_read_only ON refuses writes as
// read_only does whatever read_only says; unlike MySQL, setting one does
// not change the other's value.
func init() {
	for _, name := range []string{"read_only", "super_read_only"} {
		d := defs[name]
		d.ReadOnly = false
		defs[name] = d
	}
}
