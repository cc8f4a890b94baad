package sql

// GlobalStatus returns the server's status variables, as SHOW GLOBAL STATUS
// lists them (name, value), for readers outside a session: the /metrics
// endpoint reads its counters here at scrape time, so they exist once.
func (e *Engine) GlobalStatus() [][]string {
	return (&Session{eng: e}).statusVars(true)
}
