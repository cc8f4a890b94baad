package proc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// Tail returns the end of the file at path: its last maxBytes bytes, from
// the first line start among them when the cut falls inside a line (a
// single line longer than maxBytes is cut anyway). An
// unreadable file gives a note in parentheses instead.
func Tail(path string, maxBytes int64) string {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Sprintf("(cannot read log: %v)", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Sprintf("(cannot stat log: %v)", err)
	}
	// Read one byte before the cut too, to see whether it is a line start.
	cut := fi.Size() - maxBytes
	off := max(cut-1, 0)
	buf := make([]byte, fi.Size()-off)
	n, err := f.ReadAt(buf, off)
	if err != nil && !errors.Is(err, io.EOF) {
		return fmt.Sprintf("(cannot read log: %v)", err)
	}
	buf = buf[:n]
	if cut > 0 {
		// buf[0] is the byte before the cut: skip through the first
		// newline unless nothing would follow it.
		if i := bytes.IndexByte(buf, '\n'); i >= 0 && i+1 < len(buf) {
			buf = buf[i+1:]
		} else {
			buf = buf[1:]
		}
	}
	return string(buf)
}

// LogTail is Tail of the process's log.
func (p *Process) LogTail(maxBytes int64) string { return Tail(p.logPath, maxBytes) }
