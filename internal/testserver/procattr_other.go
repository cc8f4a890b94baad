//go:build !linux

package testserver

import "syscall"

// procAttr returns no special attributes outside Linux.
func procAttr() *syscall.SysProcAttr { return nil }
