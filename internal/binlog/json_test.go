package binlog

import (
	"testing"

	vtbinlog "vitess.io/vitess/go/mysql/binlog"
	"vitess.io/vitess/go/mysql/json"
)

// TestJSONBinary encodes documents in MySQL's binary JSON and decodes them
// with Vitess's decoder (the one VReplication uses): the same document
// must come back, large containers and number types included.
func TestJSONBinary(t *testing.T) {
	big := `[`
	for i := 0; i < 7000; i++ {
		if i > 0 {
			big += ","
		}
		big += `"abcdefghij"`
	}
	big += `]`
	for _, doc := range []string{
		`null`, `true`, `false`, `0`, `-1`, `32767`, `32768`, `-32769`, `2147483648`, `-9223372036854775808`,
		`18446744073709551615`, `1.5`, `-2.25e10`, `""`, `"héllo"`,
		`{}`, `[]`, `{"a": 1, "bb": [1, 2, {"c": null}], "b": "x", "aa": true}`,
		`[1, -70000, 70000, 4294967296, "s", 1.25, [], {"k": false}]`,
		big,
	} {
		bin, err := appendJSONText(nil, []byte(doc))
		if err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		got, err := vtbinlog.ParseBinaryJSON(bin)
		if err != nil {
			t.Fatalf("%s: decode: %v", doc[:min(len(doc), 60)], err)
		}
		var p json.Parser
		want, err := p.Parse(doc)
		if err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Fatalf("%s decodes as %s", want.String()[:min(len(want.String()), 80)], got.String()[:min(len(got.String()), 80)])
		}
	}
	if bin, _ := appendJSONText(nil, []byte(big)); bin[0] != jsonLargeArray {
		t.Fatalf("a 70 KiB array is type %d, want the large format", bin[0])
	}
	// Key order is MySQL's: by length, then bytes.
	bin, _ := appendJSONText(nil, []byte(`{"bb": 1, "a": 2, "c": 3}`))
	if string(bin[1+4+3*4+3*3:][:4]) != "acbb" {
		t.Fatalf("keys laid out as %q", bin[1+4+3*4+3*3:][:4])
	}
}
