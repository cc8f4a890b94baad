package server_test

import (
	"crypto/sha256"
	"fmt"
	"os"
	"strconv"
	"testing"
)

func TestZZGenCorpus(t *testing.T) {
	dir := "testdata/fuzz/FuzzPacket"
	os.MkdirAll(dir, 0o755)
	for _, s := range packetSeeds() {
		body := fmt.Sprintf("go test fuzz v1\nbyte(%s)\n[]byte(%s)\n", strconv.QuoteRuneToASCII(rune(s.mode)), strconv.Quote(string(s.data)))
		sum := sha256.Sum256([]byte(body))
		os.WriteFile(fmt.Sprintf("%s/seed-%x", dir, sum[:8]), []byte(body), 0o644)
	}
}
