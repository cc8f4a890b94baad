package exec

// slab hands out slices carved from large chunks (one allocation per chunk
// instead of one per row) and reuses its chunks after reset.
type slab[T any] struct {
	chunks [][]T
	cur    int // chunk being carved
	// first and size bound a new chunk's capacity: the first chunk holds
	// first elements, each next one twice as many up to size (most sorts
	// are small); a larger request gets a chunk of its own size.
	first, size int
}

// alloc returns a slice of n zero-or-stale elements whose capacity is n.
func (s *slab[T]) alloc(n int) []T {
	for ; s.cur < len(s.chunks); s.cur++ {
		c := s.chunks[s.cur]
		if cap(c)-len(c) >= n {
			s.chunks[s.cur] = c[:len(c)+n]
			return c[len(c) : len(c)+n : len(c)+n]
		}
	}
	c := min(s.first<<min(len(s.chunks), 20), s.size)
	s.chunks = append(s.chunks, make([]T, n, max(n, c)))
	return s.chunks[s.cur][:n:n]
}

// reset makes every chunk free again; slices handed out before must no
// longer be used. Chunks are cleared so they hold no stale references.
func (s *slab[T]) reset() {
	for i := range s.chunks {
		clear(s.chunks[i])
		s.chunks[i] = s.chunks[i][:0]
	}
	s.cur = 0
}
