package bench

import (
	"fmt"
	"testing"
	"time"
)

func TestParseOptionsDefaults(t *testing.T) {
	full, err := parseOptions("sysbench", nil, devNull(t))
	if err != nil {
		t.Fatal(err)
	}
	if full.Tables != 10 || full.TableSize != 100000 || full.Time != 15*time.Second || fmt.Sprint(full.Threads) != "[1 2 4 16]" ||
		full.Conns != 1024 || full.WACacheBytes != 16<<20 || full.CacheBytes != 128<<20 || len(full.Scripts) != 8 {
		t.Errorf("sysbench defaults: %+v", full)
	}
	quick, err := parseOptions("sysbench", []string{"--quick"}, devNull(t))
	if err != nil {
		t.Fatal(err)
	}
	if quick.Tables != 1 || quick.TableSize != 10000 || quick.Time != 8*time.Second || fmt.Sprint(quick.Threads) != "[4]" ||
		quick.Conns != 64 || quick.WACacheBytes != 8<<20 {
		t.Errorf("sysbench quick defaults: %+v", quick)
	}
	skip, err := parseOptions("sysbench", []string{"--quick", "--conns", "0", "--wa-cache-mb", "0"}, devNull(t))
	if err != nil || skip.Conns != 0 || skip.WACacheBytes != 0 {
		t.Errorf("--conns 0 --wa-cache-mb 0: %+v %v", skip, err)
	}
	set, err := parseOptions("sysbench", []string{"--quick", "--conns", "300", "--wa-cache-mb", "32", "--tables", "2"}, devNull(t))
	if err != nil || set.Conns != 300 || set.WACacheBytes != 32<<20 || set.Tables != 2 {
		t.Errorf("explicit flags under --quick: %+v %v", set, err)
	}
	if _, err := parseOptions("sysbench", []string{"--conns", "-1"}, devNull(t)); err == nil {
		t.Error("--conns -1 accepted")
	}
	seed, err := parseOptions("seed", nil, devNull(t))
	if err != nil || seed.Tables != 8 || seed.Conns != 0 || seed.WACacheBytes != 0 || seed.Time != 30*time.Second {
		t.Errorf("seed defaults: %+v %v", seed, err)
	}
	if _, err := parseOptions("seed", []string{"--conns", "10"}, devNull(t)); err == nil {
		t.Error("seed accepted --conns")
	}
}

func TestParsePageViewsOptions(t *testing.T) {
	def, err := parseOptions("pageviews", nil, devNull(t))
	if err != nil {
		t.Fatal(err)
	}
	if def.PVSize != 2<<30 || def.Reps != 5 || def.Seed != 1 || len(def.Engines) != 3 || def.QueryTimeout != 600*time.Second {
		t.Errorf("pageviews defaults: %+v", def)
	}
	quick, err := parseOptions("pageviews", []string{"--quick"}, devNull(t))
	if err != nil || quick.PVSize != 4<<20 {
		t.Errorf("pageviews --quick: %+v %v", quick, err)
	}
	set, err := parseOptions("pageviews", []string{"--quick", "--size", "300M", "--reps", "3", "--engines", "strata,myrocks"}, devNull(t))
	if err != nil || set.PVSize != 300<<20 || set.Reps != 3 || fmt.Sprint(set.Engines) != "[strata myrocks]" {
		t.Errorf("pageviews flags: %+v %v", set, err)
	}
	for _, bad := range [][]string{{"--size", "10K"}, {"--size", "lots"}, {"--scale", "1"}} {
		if _, err := parseOptions("pageviews", bad, devNull(t)); err == nil {
			t.Errorf("pageviews accepted %v", bad)
		}
	}
}
