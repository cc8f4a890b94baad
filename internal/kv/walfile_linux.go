//go:build linux

package kv

import "golang.org/x/sys/unix"

// extendAllocate allocates [offset, offset+length) of the file and extends
// its size over the range (fallocate mode 0).
func extendAllocate(fd uintptr, offset, length int64) error {
	return unix.Fallocate(int(fd), 0, offset, length)
}
