// Package eval compiles SQL expressions and evaluates them over rows, on
// strata's fork of Vitess's evalengine (internal/third_party/evalengine).
//
// # Basics
//
// A Compiler turns a parsed expression (sqlparser.Expr) into an Expr. Its
// Scope resolves column names to offsets in the Row the expression will be
// evaluated over (1054 for an unknown column, 1052 for an ambiguous one);
// its Settings are the session settings compiling reads (connection
// collation, sql_mode, div_precision_increment), passed in as values (a
// cached plan is reused only under equal settings); constant folding reads
// the time zone through Settings.VCursor. Compiling clones the expression
// and rewrites it before evalengine translates it:
//
//   - session values (@user and @@system variables, LAST_INSERT_ID(),
//     DATABASE(), USER(), ...) become bind variables named under BVPrefix,
//     collected in Compiler.Names, which the executor fills from the session
//     before evaluating;
//   - columns that resolve only in an enclosing query (Compiler.Outer)
//     become bind variables bound from the outer row;
//   - ENUM columns read as their 1-based member number in numeric contexts,
//     and LIKE ... ESCAPE and NOT LIKE are corrected where evalengine differs
//     from MySQL;
//   - every division whose divisor is not a non-zero literal gets a check
//     that raises warning 1365 (evalengine returns NULL silently);
//   - what evalengine cannot compute becomes a slot.
//
// # Slots
//
// A Slot is a value an expression reads as a bind variable, computed by a
// Go function before the expression is evaluated: strata's own functions
// (internal/sql/builtins), @v := expr, DEFAULT(col), subqueries. A Slot's
// function receives the Ctx and the row; Ctx.Eval computes an expression's
// slots (in order) and then evaluates it.
//
// # Interfaces to the planner and the session
//
// eval does not import internal/sql: what it needs of it is declared here
// and implemented there. Planner is the compiler's view of the planner (it
// plans subqueries into slots and numbers slots uniquely in the session);
// Host is an execution's view of the session (warnings, sql_mode, system
// and user variables, the connection collation, a column's DEFAULT
// expression). Builtin functions see the execution as a builtins.Env, which
// Ctx implements by forwarding to its Host. The interfaces keep the
// compiler and the evaluator testable alone and keep the session's state
// out of compiled expressions, which cached plans keep across executions.
//
// Ctx is a struct that internal/sql's execution context embeds by value:
// evaluating costs no allocation or indirection beyond evalengine's own,
// and a slot planned by internal/sql reaches its execution context back
// through Ctx.Host.
//
// # Caveats
//
//   - A compiled Expr is used by one execution at a time (internal/sql
//     hands cached plans out exclusively): the slots of strata's functions
//     reuse their argument buffers for every row. The rest of what an
//     evaluation writes (bind variables of slots, the builtin functions'
//     state) lives in the Ctx, which belongs to one execution.
//   - Values an evaluation returns may alias the row and the expression's
//     literals: copy them before they outlive either (Host.SetUserVar
//     copies).
//   - evalengine panics on a few inputs; Compile and the Eval methods turn
//     panics into errors (1105) rather than crash the server.
package eval
