package binlog

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/strata-db/strata/internal/durable"
)

// fileName is the name of binlog file number n ("binlog.000001").
func (l *Log) fileName(n uint32) string {
	return fmt.Sprintf("%s.%06d", l.opts.Basename, n)
}

func (l *Log) filePath(n uint32) string { return filepath.Join(l.opts.Dir, l.fileName(n)) }

func (l *Log) indexPath() string { return filepath.Join(l.opts.Dir, l.opts.Basename+".index") }

// fileNumber parses the number of a binlog file name, or false.
func (l *Log) fileNumber(name string) (uint32, bool) {
	name = filepath.Base(name)
	rest, ok := strings.CutPrefix(name, l.opts.Basename+".")
	if !ok || len(rest) < 6 {
		return 0, false
	}
	n, err := strconv.ParseUint(rest, 10, 32)
	if err != nil || n == 0 {
		return 0, false
	}
	return uint32(n), true
}

// readIndex lists the file numbers in the index file (none when missing).
func (l *Log) readIndex() ([]uint32, error) {
	f, err := os.Open(l.indexPath())
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("binlog index: %w", err)
	}
	defer f.Close()
	var nums []uint32
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		n, ok := l.fileNumber(line)
		if !ok {
			return nil, fmt.Errorf("binlog index: bad line %q", line)
		}
		nums = append(nums, n)
	}
	return nums, sc.Err()
}

// writeIndexLocked rewrites the index file (temporary file, fsync, rename).
func (l *Log) writeIndexLocked() error {
	var b strings.Builder
	for _, n := range l.files.nums {
		b.WriteString("./" + l.fileName(n) + "\n")
	}
	if err := durable.WriteFile(l.indexPath(), []byte(b.String()), 0o666); err != nil {
		return fmt.Errorf("binlog index: %w", err)
	}
	return nil
}

// fileHeader returns the first bytes of a file whose previous transactions
// are uuid:1-prev: magic, FORMAT_DESCRIPTION, PREVIOUS_GTIDS.
func (l *Log) fileHeader(prev uint64, ts uint32) []byte {
	e := encoder{buf: append([]byte(nil), Magic...), serverID: l.ServerID(), ts: ts}
	e.formatDescription(l.opts.Version)
	e.previousGTIDs(l.uuid, prev)
	return e.buf
}

// headerLen is the length of fileHeader(prev).
func (l *Log) headerLen(prev uint64) uint64 {
	return uint64(len(l.fileHeader(prev, 0)))
}

// createFileLocked creates file n with its header and lists it in the index.
func (l *Log) createFileLocked(n uint32, prev uint64, ts uint32) error {
	f, err := os.OpenFile(l.filePath(n), os.O_CREATE|os.O_RDWR|os.O_TRUNC, 0o640)
	if err != nil {
		return fmt.Errorf("binlog create: %w", err)
	}
	if _, err := f.Write(l.fileHeader(prev, ts)); err != nil {
		f.Close()
		return fmt.Errorf("binlog create: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("binlog create: %w", err)
	}
	if l.files.f != nil {
		if err := l.files.f.Sync(); err != nil {
			f.Close()
			return fmt.Errorf("binlog sync: %w", err)
		}
		l.files.f.Close()
	}
	l.files.f, l.files.num = f, n
	l.files.end = l.headerLen(prev)
	l.files.lastSeq = 0
	listed := false
	for _, m := range l.files.nums {
		listed = listed || m == n
	}
	if !listed {
		l.files.nums = append(l.files.nums, n)
	}
	return l.writeIndexLocked()
}

// FileInfo is one row of SHOW BINARY LOGS.
type FileInfo struct {
	Name string
	Size int64
}

// Files lists the binlog files, oldest first.
func (l *Log) Files() []FileInfo {
	l.files.Lock()
	defer l.files.Unlock()
	out := make([]FileInfo, 0, len(l.files.nums))
	for _, n := range l.files.nums {
		fi := FileInfo{Name: l.fileName(n)}
		if st, err := os.Stat(l.filePath(n)); err == nil {
			fi.Size = st.Size()
		}
		out = append(out, fi)
	}
	return out
}

// FilePath returns the path of a listed binlog file by name, or false.
func (l *Log) FilePath(name string) (string, bool) {
	n, ok := l.fileNumber(name)
	if !ok || filepath.Base(name) != name {
		return "", false
	}
	l.files.Lock()
	defer l.files.Unlock()
	for _, m := range l.files.nums {
		if m == n {
			return l.filePath(n), true
		}
	}
	return "", false
}

// PurgeTo deletes the files before the named one (PURGE BINARY LOGS TO).
// It fails when the file is not listed.
func (l *Log) PurgeTo(name string) error {
	n, ok := l.fileNumber(name)
	if !ok {
		return ErrUnknownFile
	}
	l.files.Lock()
	defer l.files.Unlock()
	found := false
	for _, m := range l.files.nums {
		found = found || m == n
	}
	if !found {
		return ErrUnknownFile
	}
	return l.purgeLocked(func(m uint32, _ os.FileInfo) bool { return m < n })
}

// PurgeBefore deletes the files last modified before unix time t, never
// the current file (PURGE BINARY LOGS BEFORE, binlog_expire_logs_seconds).
func (l *Log) PurgeBefore(t int64) error {
	l.files.Lock()
	defer l.files.Unlock()
	return l.purgeLocked(expiredBefore(t))
}

// expiredBefore selects files last modified before unix time t.
func expiredBefore(t int64) func(uint32, os.FileInfo) bool {
	return func(_ uint32, st os.FileInfo) bool { return st != nil && st.ModTime().Unix() < t }
}

// purgeLocked deletes leading files while drop says so (the current file
// and files whose records are still in the store stay).
func (l *Log) purgeLocked(drop func(uint32, os.FileInfo) bool) error {
	keep := 0
	for keep < len(l.files.nums)-1 {
		n := l.files.nums[keep]
		if n >= l.files.num {
			break // records of this file may still need it
		}
		st, _ := os.Stat(l.filePath(n))
		if !drop(n, st) {
			break
		}
		keep++
	}
	if keep == 0 {
		return nil
	}
	gone := append([]uint32(nil), l.files.nums[:keep]...)
	l.files.nums = l.files.nums[keep:]
	if err := l.writeIndexLocked(); err != nil {
		return err
	}
	for _, n := range gone {
		if err := os.Remove(l.filePath(n)); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("binlog purge: %w", err)
		}
	}
	return nil
}
