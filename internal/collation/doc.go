// Package collation holds what strata needs to know about MySQL collations
// beyond Vitess's colldata: which collations are PAD SPACE (trailing spaces
// are insignificant when comparing, grouping and indexing) and how to strip
// those spaces in the collation's character set.
//
// MySQL 8.0's rule: every collation is PAD SPACE except the UCA 9.0.0
// collations (names containing "_0900_") and binary, which are NO PAD.
// Vitess's colldata compares and weighs strings as NO PAD throughout, so
// every place that compares, groups, hashes or encodes text under a
// collation trims with TrimPad first.
package collation
