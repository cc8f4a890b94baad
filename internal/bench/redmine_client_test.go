package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// fakeRedmine answers the requests of the two operations as Redmine does
// and records them as "METHOD path body".
type fakeRedmine struct {
	mu   sync.Mutex
	reqs []string
}

func (f *fakeRedmine) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.reqs = append(f.reqs, strings.TrimSpace(fmt.Sprintf("%s %s %s", r.Method, r.URL.Path, body)))
	f.mu.Unlock()
	if r.Header.Get("X-Redmine-API-Key") != "key" {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/issues.json":
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, `{"issue":{"id":77}}`)
	case r.Method == http.MethodPut:
		w.WriteHeader(http.StatusNoContent)
	case r.Method == http.MethodGet && r.URL.Path == "/issues.json":
		q := r.URL.Query()
		if q.Get("status_id") != "1" || q.Get("limit") != "10" || q.Get("sort") != "id" {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		n := 10
		if q.Get("project_id") != "5" {
			n = 3 // other projects are nearly done
		}
		var list struct {
			Issues []map[string]any `json:"issues"`
		}
		for i := 0; i < n; i++ {
			list.Issues = append(list.Issues, map[string]any{"id": 100 + i, "assigned_to": map[string]any{"id": 11, "name": "x"}})
		}
		json.NewEncoder(w).Encode(list)
	default:
		w.WriteHeader(http.StatusNotFound)
	}
}

func testRedmineClient(t *testing.T, f *fakeRedmine) *redmineClient {
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	var p int
	fmt.Sscan(port, &p)
	return newRedmineClient(p, "key")
}

var testRefs = redmineRefs{Trackers: []int{1, 2, 3}, New: 1, InProgress: 2, Resolved: 3, Priority: 4}

func TestCreateIssueOperation(t *testing.T) {
	f := &fakeRedmine{}
	c := testRedmineClient(t, f)
	if err := c.createIssue(context.Background(), testRefs, redmineProject{ID: 5, Members: []int{11, 12}}, 3); err != nil {
		t.Fatal(err)
	}
	if len(f.reqs) != 12 || c.requests.Load() != 12 {
		t.Fatalf("%d requests (client counted %d), want 12: %q", len(f.reqs), c.requests.Load(), f.reqs)
	}
	if !strings.HasPrefix(f.reqs[0], `POST /issues.json {"issue":{"description"`) || !strings.Contains(f.reqs[0], `"project_id":5`) {
		t.Errorf("create: %q", f.reqs[0])
	}
	if f.reqs[1] != `PUT /issues/77.json {"issue":{"assigned_to_id":12}}` {
		t.Errorf("assign: %q", f.reqs[1])
	}
	for i, r := range f.reqs[2:] {
		if !strings.HasPrefix(r, fmt.Sprintf(`PUT /issues/77.json {"issue":{"notes":"Comment %d:`, i+1)) {
			t.Errorf("comment %d: %q", i+1, r)
		}
	}
}

func TestProcessIssuesOperation(t *testing.T) {
	f := &fakeRedmine{}
	c := testRedmineClient(t, f)
	if err := c.processIssues(context.Background(), testRefs, redmineProject{ID: 5, Members: []int{11, 12, 13}}); err != nil {
		t.Fatal(err)
	}
	if len(f.reqs) != 21 {
		t.Fatalf("%d requests, want 21: %q", len(f.reqs), f.reqs)
	}
	for k := 0; k < 10; k++ {
		start, done := f.reqs[1+2*k], f.reqs[2+2*k]
		want := fmt.Sprintf(`PUT /issues/%d.json {"issue":{"done_ratio":50,"notes":"Working on it","status_id":2}}`, 100+k)
		if start != want {
			t.Errorf("issue %d start: %q, want %q", 100+k, start, want)
		}
		// Resolved, reassigned away from the current assignee (11).
		if !strings.HasPrefix(done, fmt.Sprintf(`PUT /issues/%d.json {"issue":{"assigned_to_id":`, 100+k)) ||
			strings.Contains(done, `"assigned_to_id":11,`) || !strings.Contains(done, `"status_id":3`) {
			t.Errorf("issue %d resolve: %q", 100+k, done)
		}
	}
	// A project without 10 New issues is an error, not a short operation.
	err := c.processIssues(context.Background(), testRefs, redmineProject{ID: 6, Members: []int{11}})
	if err == nil || !strings.Contains(err.Error(), "only 3 New issues") {
		t.Errorf("short pool: %v", err)
	}
}
