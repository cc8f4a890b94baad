package parse

import "testing"

func TestSetCharsetBinary(t *testing.T) {
	for in, want := range map[string]string{
		"/*!40101 set @@character_set_database=binary */":      "/*!40101 set @@character_set_database='binary' */",
		"SET SESSION character_set_client = BINARY, a = 1":     "SET SESSION character_set_client = 'binary', a = 1",
		"SET @@global.character_set_results := binary":         "SET @@global.character_set_results := 'binary'",
		"SELECT CAST(x AS BINARY) FROM character_set_whatever": "",
		"SET names binary": "",
	} {
		got, ok := SetCharsetBinary(in)
		if want == "" {
			if ok {
				t.Errorf("%q: rewritten to %q", in, got)
			}
			continue
		}
		if !ok || got != want {
			t.Errorf("%q: got %q, %v; want %q", in, got, ok, want)
		}
	}
}
