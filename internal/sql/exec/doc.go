// Package exec holds the SQL layer's execution operators (the sql/exec of
// the SQL-engine design): building blocks that a plan strings together
// into a tree and that produce rows in batches. It holds the contract
// (Operator) and the operators that need no session: Filter (rows an
// exec.Predicate keeps), Limit (OFFSET and LIMIT counted across batches;
// it stops pulling its input once LIMIT is met), Values (rows in memory)
// and the sort: ORDER BY in bounded memory, spilling sorted runs to disk.
// Operators that evaluate expressions or take row locks (the join, the
// aggregations, the projection) implement Operator in the sql package,
// which builds a SELECT's tree (select_ops.go there).
//
// # Operator contract
//
// Every operator has the same life cycle:
//
//	Open()                 prepare; may consume the input (a sort must)
//	Next() ([]Row, error)  the next batch of rows, or nil at the end
//	Close() error          always called, also after an error or a panic
//	                       of the caller; releases memory and removes
//	                       every file the operator created
//
// A batch and its rows' values are valid until the next call to Next or
// Close: a consumer that keeps rows copies them. An operator opens its
// input in Open and closes it in Close, so the root's life cycle runs the
// whole tree. A batch holds at least one row: nil is the end. An operator
// whose rows live in buffers it reuses (a scan's entry, an evaluated value)
// yields one row per batch; Limit reads no further than its count only when
// its input's batches are no larger than the rows it still wants. Batches
// hold at most BatchRows rows or about BatchBytes bytes of values.
// Operators are not safe for use by more than one goroutine; every
// execution has its own (the sql package keeps a SELECT's in its plan,
// which one execution at a time checks out, and resets them at each
// execution).
//
// # Sort
//
// Sort orders rows by keys with MySQL's ORDER BY semantics (SortVal:
// NULL first, numbers by value, text by its collation with PAD SPACE,
// mixed types as evalengine compares them; DESC reverses the order) and
// keeps equal keys in input order (a stable sort). It accumulates rows up
// to a memory bound; when they fit, it sorts them in memory and no file is
// created. Past the bound each sorted run is written to a temporary file
// (runfile.go), and the runs are merged with a heap (merge.go), at most
// MergeFanIn at a time: more runs take intermediate merge passes into a
// new file (MySQL's Sort_merge_passes counts each merge). With a limit
// (ORDER BY ... LIMIT n) only the best offset+limit rows are kept, in a
// heap (top-N), and nothing spills unless those rows outgrow the bound.
//
// # Caveats
//
// The memory bound counts the rows' values, their bytes and the prepared
// sort keys, not the slack of Go's allocator; a single row larger than
// the bound is still held. The merge holds one read buffer per merged
// run besides the bound (bound/MergeFanIn, between 4 and 64 KiB each).
// Comparisons are those of the in-memory sort (text through its
// collation), so a spilled sort costs about twice the CPU of an in-memory
// one: the merges compare each row again.
package exec
