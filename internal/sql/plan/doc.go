// Package plan holds the planner's decisions: how the tables of a query
// are ordered and which conditions each can use to read fewer rows.
//
// (Draft; see the full description below once the package is complete.)
package plan
