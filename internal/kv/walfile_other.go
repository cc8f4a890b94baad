//go:build !linux

package kv

import "errors"

// extendAllocate is Linux-only; elsewhere the WAL keeps Pebble's own
// preallocation.
func extendAllocate(fd uintptr, offset, length int64) error {
	return errors.ErrUnsupported
}
