// Package sql is strata's SQL layer: it parses statements with Vitess's
// parser, resolves names against the catalog, plans an access path per table
// and executes with pull-based operators over the table layer. Expressions are
// compiled and evaluated by internal/sql/eval over Vitess's evalengine,
// corrected where MySQL semantics differ.
//
// A Session holds per-connection state (current database, variables, the open
// transaction); an Engine is shared by all sessions.
package sql
