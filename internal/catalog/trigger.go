package catalog

import "strings"

// Trigger is a trigger of a table (CREATE TRIGGER), kept in its table's
// definition: DROP TABLE drops it, RENAME TABLE keeps it. Trigger names
// are unique per schema (TriggerTable finds a name's table).
type Trigger struct {
	Name string `json:"name"`
	// Timing is BEFORE or AFTER, Event INSERT, UPDATE or DELETE.
	Timing string `json:"timing"`
	Event  string `json:"event"`
	// Body is the trigger's statement as written (ACTION_STATEMENT): one
	// statement or BEGIN ... END.
	Body string `json:"body"`
	// Definer is the account as MySQL prints it: `user`@`host`.
	Definer string `json:"definer"`
	// SQLMode is the sql_mode in force at CREATE TRIGGER.
	SQLMode string `json:"sql_mode"`
	// CharsetClient, CollationConnection are the session's at creation.
	CharsetClient       string `json:"charset_client"`
	CollationConnection string `json:"collation_connection"`
	// Created is the creation time in Unix microseconds.
	Created int64 `json:"created"`
}

// TriggersFor returns t's triggers of one timing and event in their
// action order (the order of t.Triggers).
func (t *Table) TriggersFor(timing, event string) []*Trigger {
	var out []*Trigger
	for i := range t.Triggers {
		tr := &t.Triggers[i]
		if tr.Timing == timing && tr.Event == event {
			out = append(out, tr)
		}
	}
	return out
}

// TriggerIndex returns the position of the named trigger in t.Triggers
// (case-insensitive), or -1.
func (t *Table) TriggerIndex(name string) int {
	for i := range t.Triggers {
		if strings.EqualFold(t.Triggers[i].Name, name) {
			return i
		}
	}
	return -1
}

// TriggerTable returns the table of schema db that has the named trigger,
// or nil.
func (c *Catalog) TriggerTable(db, name string) *Table {
	for _, t := range c.Tables(db) {
		if t.TriggerIndex(name) >= 0 {
			return t
		}
	}
	return nil
}
