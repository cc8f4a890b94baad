// Package server speaks the MySQL wire protocol (through Vitess's mysql
// package): listener, authentication, one sql.Session per connection, result
// encoding and status flags. It holds no SQL semantics.
package server
