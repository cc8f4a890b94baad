package binlog

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/strata-db/strata/internal/durable"
)

// autoCnf is the file that keeps the server UUID, as MySQL's auto.cnf.
const autoCnf = "auto.cnf"

// LoadServerUUID returns the server UUID kept in dir/auto.cnf, generating
// and writing (fsynced) a random version-4 UUID the first time.
func LoadServerUUID(dir string) (string, error) {
	p := filepath.Join(dir, autoCnf)
	if f, err := os.Open(p); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "server-uuid="); ok {
				if _, err := ParseUUID(v); err != nil {
					return "", fmt.Errorf("%s: %w", p, err)
				}
				return v, nil
			}
		}
		return "", fmt.Errorf("%s: no server-uuid", p)
	} else if !os.IsNotExist(err) {
		return "", fmt.Errorf("read server uuid: %w", err)
	}
	var u [16]byte
	if _, err := rand.Read(u[:]); err != nil {
		return "", fmt.Errorf("generate server uuid: %w", err)
	}
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	s := FormatUUID(u)
	if err := durable.WriteFile(p, fmt.Appendf(nil, "[auto]\nserver-uuid=%s\n", s), 0o666); err != nil {
		return "", fmt.Errorf("write server uuid: %w", err)
	}
	return s, nil
}

// ParseUUID parses the text form xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx.
func ParseUUID(s string) ([16]byte, error) {
	var u [16]byte
	h := strings.ReplaceAll(s, "-", "")
	if len(s) != 36 || len(h) != 32 {
		return u, fmt.Errorf("bad uuid %q", s)
	}
	if _, err := hex.Decode(u[:], []byte(h)); err != nil {
		return u, fmt.Errorf("bad uuid %q", s)
	}
	return u, nil
}

// FormatUUID returns the text form of u.
func FormatUUID(u [16]byte) string {
	h := hex.EncodeToString(u[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
