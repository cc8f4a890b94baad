// Package privilege holds strata's access-control rules: the privileges
// MySQL 8.0 knows, the grants an account holds at each level, the rule every
// statement kind must satisfy, and the MySQL errors a refusal produces.
//
// # Basics
//
// A Priv is a set of privileges, one bit each. The static privileges are
// numbered as MySQL numbers them (SELECT_ACL is bit 0, …, DROP_ROLE_ACL bit
// 30), so that a refusal names the missing privileges in MySQL's order
// ("SELECT, INSERT command denied …"); the dynamic privileges strata knows
// (CONNECTION_ADMIN, SYSTEM_VARIABLES_ADMIN, SYSTEM_USER, …) follow.
//
// Grants is what an account holds: a global set, a set per database and a
// set per table. A privilege held at a higher level covers every object
// below it.
//
// Every statement kind (Kind) has one Rule in the rule table (rules.go): the
// level it is checked at, the privileges it needs, and how a refusal is
// reported. The SQL layer classifies each statement into a Kind and turns
// its rule into Needs — one per object the statement touches — which
// Subject.Check verifies. Access is denied by default: a statement the SQL
// layer cannot classify is KindUnknown, whose rule demands SUPER, and the
// tests check that every Kind has a rule.
//
// # Column privileges
//
// SELECT, INSERT, UPDATE and REFERENCES may also be granted on single
// columns (columns.go). A statement needs the privilege on every column it
// reads or writes unless the account holds it on the table or above; the
// SQL layer adds one Need per column (1143 names the column), and marks its
// table-level Needs with Columns so that a privilege held on some column
// of the table passes them, as MySQL's table check defers to the column
// checks. With no privilege on any column the table check refuses (1142).
//
// # Caveats
//
//   - No roles, no proxy users, no wildcard database names in grants.
//   - SHOW GRANTS lists a privilege's columns in alphabetical order (MySQL's
//     order is that of a hash table); mysql.columns_priv has no Timestamp.
//   - The built-in root account holds every privilege and bypasses the
//     checks.
//
// The package never imports the sql package: it sees statements only as
// Kinds and objects.
package privilege
