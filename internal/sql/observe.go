package sql

// GlobalStatus returns the server's status variables, as SHOW GLOBAL STATUS
// lists them (name, value), for readers outside a session: the /metrics
// endpoint reads its counters here at scrape time, so they exist once.
func (e *Engine) GlobalStatus() [][]string {
	return (&Session{eng: e}).statusVars(true)
}

// OpenTransactions returns the number of sessions with an open
// transaction (as INNODB_TRX lists them), read from what the sessions
// publish.
func (e *Engine) OpenTransactions() int {
	n := 0
	for _, s := range e.Sessions() {
		if s.shownTxn.Load() != 0 {
			n++
		}
	}
	return n
}
