//go:build !linux

package stress

import "syscall"

// procAttr returns no special attributes outside Linux.
func procAttr() *syscall.SysProcAttr { return nil }
