package lock

// Mode is a lock mode. The zero value means "no lock".
type Mode uint8

// Lock modes. Exclusive is stronger than Shared: holding Exclusive satisfies
// a Shared request.
const (
	// Shared (S) locks are compatible with each other (SELECT … FOR SHARE).
	Shared Mode = 1
	// Exclusive (X) locks conflict with every other lock (UPDATE, DELETE,
	// SELECT … FOR UPDATE, duplicate checks).
	Exclusive Mode = 2
)

// String returns "S", "X", or "none".
func (m Mode) String() string {
	switch m {
	case Shared:
		return "S"
	case Exclusive:
		return "X"
	case 0:
		return "none"
	default:
		return "invalid"
	}
}

// conflicts reports whether locks of modes a and b held by two different
// transactions are incompatible.
func conflicts(a, b Mode) bool {
	return a == Exclusive || b == Exclusive
}
