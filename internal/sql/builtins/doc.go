// Package builtins holds the SQL functions strata implements itself
// because Vitess's evalengine lacks them or gets them wrong: string
// functions (SUBSTRING_INDEX, FORMAT, UPPER, ...), date and time functions
// (DATEDIFF, TIMESTAMPDIFF, EXTRACT, STR_TO_DATE, ...), RAND, SLEEP,
// UUID_SHORT, the user-level locks (GET_LOCK and its family) and the
// internal strata_enum_index.
//
// # Registry
//
// Each file registers its functions, by lower-case name, in init; aliases
// (UCASE for UPPER) share one Func. The registry is read-only after
// initialisation: Lookup needs no lock, and nothing outside the package can
// add to it.
//
// # Calling convention
//
// The expression compiler (internal/sql/eval, slots.go) replaces every
// call of a registered name by a bind variable and compiles the call into
// a slot:
//
//   - at compile time it checks the number of arguments (Func.CheckArity,
//     MySQL error 1582) and asks Func.Type for the result type, given the
//     arguments' AST and compile-time types and a TypeEnv (the connection
//     collation), so column metadata is known at PREPARE;
//   - at execution, before the expression that contains the call is
//     evaluated, it evaluates the arguments with evalengine and calls
//     Func.Eval with their values and an Env, and binds the result to the
//     bind variable.
//
// Eval reads the statement it runs in only through Env: the statement's
// context, sql_mode, warnings, system variables, the collation of its text
// arguments, the connection id, the server's user-lock table (UserLocks)
// and per-execution State. The package does not import internal/sql.
//
// Values follow the engine's memory rule (docs/architecture.md): a
// function writes only into memory it allocated; it may return an
// argument unchanged, and must not write into its arguments' bytes. The
// argument slice is reused by its call site for every row; a function may
// use its address to tell call sites apart (RAND(seed)) but must not keep
// the values.
package builtins
