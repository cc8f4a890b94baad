// Package plan holds the planner's decisions: in which order the tables of
// a query are joined, which index reads each table and which conditions
// fix its keys, and what EXPLAIN calls the result. It works on parsed
// conditions (sqlparser.Expr) resolved through an eval.Scope and on
// catalog definitions and statistics; it compiles nothing and reads no
// rows. internal/sql builds the executable plan from its answers.
//
// # What a plan is
//
// A SELECT's FROM clause becomes a left-deep list of tables (JoinTable),
// each one level of a nested-loop join. Its WHERE clause and inner joins'
// ON conditions are split into conjuncts (SplitAnd); each conjunct is
// attached to the first level, in execution order, where every table it
// reads has been read (ReferencedSet gives the tables as a bitmask, so a
// join has at most MaxJoinTables tables). Before that the conjuncts are
// completed with what they imply: the conjuncts every disjunct of an OR
// shares (OrCommonConjuncts), the condition an OR over several tables
// implies on each of them (OrImpliedByTable) and the equalities integer
// columns propagate (ImpliedEqualities). WHERE conjuncts EXISTS, NOT EXISTS
// and IN over a one-table subquery become semi- and anti-joined tables
// (SemiJoinCandidate, SemiJoinOf; SemiOrder places them). A subquery
// correlated only through equalities of its WHERE clause is rewritten
// into its uncorrelated form (Decorrelate), which internal/sql runs once
// and hashes when the correlated runs read more than its tables hold.
//
// Per level, the conjuncts an index can serve are its sargable predicates
// (Sargable): a column of the table compared with values known before the
// table is read. ChooseIndex scores every index the hints allow
// (IndexHints) by the key columns those predicates fix and returns an
// IndexChoice: the index, the predicate giving each key column, the range
// on the next one, whether the index order gives the ORDER BY, and the
// conjuncts the key ranges enforce exactly (which need no filter;
// SplitConsumed). A table none of whose columns the query reads is read
// from its index keys alone (NeededTables); ORDER BY, GROUP BY and HAVING
// names resolve to select-list expressions by alias or position
// (ResolveOrderAlias, SubstituteAliases). internal/sql compiles the choice
// into its access path, whose key ranges are encoded from each outer row at
// execution time, and picks the join method per level: an index lookup when
// the choice uses key values from earlier tables, a hash join when no index
// serves an equality with them, otherwise a nested loop over the access
// path.
//
// # How a join order is chosen
//
// JoinOrder keeps the written order for STRAIGHT_JOIN, outer joins and
// single tables. When every table has statistics (ANALYZE TABLE, or the
// background refresh) the order is cost-based (joincost.go):
// greedy from each possible first table, each step placing the joined
// table whose reads plus resulting rows cost least, estimated from row
// counts, the distinct values of index prefixes, histograms of compared
// columns and MySQL's fixed selectivity guesses; the cheapest whole order
// wins. Otherwise a table that nothing joins to the tables placed before
// it is put off until one that is joined has been placed (joinorder.go).
//
// # Interfaces to the session
//
// plan does not import internal/sql. What it needs of the session is
// declared here: Statistics (the catalog's table statistics and the
// store's row counts; a plan that reads them is redone when they change)
// and Constants (planning-time evaluation of constant operands for
// histogram look-ups). internal/sql implements both (planner.go), as
// internal/sql/eval's Planner and Host are implemented there.
//
// # EXPLAIN
//
// IndexChoice.AccessType and KeyLen are MySQL's access type and key_len of
// a choice; internal/sql renders EXPLAIN's rows and FORMAT=TREE from them
// and its executable plan (row estimates count index entries in the store;
// EXPLAIN ANALYZE counts what an execution did). The golden EXPLAIN files
// in testdata/explain are datadriven tests that plan queries end to end
// through an engine on an in-memory store (explain_golden_test.go); rewrite
// them with
//
//	go test ./internal/sql/plan -run TestExplainGolden -rewrite
//
// # Caveats
//
//   - Predicates and choices hold the parsed expressions of the statement;
//     they are shared by cached plans and must not be modified.
//   - Condition sets are uint64 bitmasks: tables past the 64th of a join
//     (semi-joined ones included) are not tracked, so a join is limited to
//     MaxJoinTables tables.
//   - The cost model is coarse (units of one row read by a table scan) and
//     only orders inner joins; outer joins keep their written order.
package plan
