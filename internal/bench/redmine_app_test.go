package bench

import "testing"

func TestRubyError(t *testing.T) {
	out := "== migrating\nrake aborted!\nActiveRecord::StatementInvalid: Mysql2::Error: Unknown system variable 'x'\n/usr/share/x.rb:1:in `y'\nTasks: TOP => db:create\n"
	if got := rubyError([]byte(out)); got != "ActiveRecord::StatementInvalid: Mysql2::Error: Unknown system variable 'x'" {
		t.Errorf("rubyError = %q", got)
	}
	if got := rubyError([]byte("a\nb\n")); got != "a\nb" {
		t.Errorf("rubyError without rake = %q", got)
	}
}
