package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync/atomic"
	"time"
)

// redmineClient calls Redmine's REST API as the admin (API key). Every
// request opens a new connection (no keep-alive), so puma's workers take
// requests as they free up instead of each client sticking to the worker
// that accepted its first connection.
type redmineClient struct {
	base     string
	key      string
	http     *http.Client
	requests atomic.Int64
}

func newRedmineClient(port int, key string) *redmineClient {
	return &redmineClient{
		base: fmt.Sprintf("http://127.0.0.1:%d", port),
		key:  key,
		http: &http.Client{Timeout: 2 * time.Minute, Transport: &http.Transport{DisableKeepAlives: true}},
	}
}

// do sends method path with body as JSON, expects status want and decodes
// the response into out (when not nil).
func (c *redmineClient) do(ctx context.Context, method, path string, body any, want int, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("%s %s: %w", method, path, err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	req.Header.Set("X-Redmine-API-Key", c.key)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	c.requests.Add(1)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("%s %s: reading the response: %w", method, path, err)
	}
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: HTTP %d, want %d: %.300s", method, path, resp.StatusCode, want, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			return fmt.Errorf("%s %s: response: %w", method, path, err)
		}
	}
	return nil
}

// named is an id with a name, as Redmine's listings give them.
type named struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

// redmineRefs are the ids of the default data the operations use.
type redmineRefs struct {
	Trackers           []int
	New, InProgress    int
	Resolved, Priority int
}

// loadRefs reads trackers, statuses and priorities through the API.
func (c *redmineClient) loadRefs(ctx context.Context) (redmineRefs, error) {
	var refs redmineRefs
	var tr struct {
		Trackers []named `json:"trackers"`
	}
	var st struct {
		Statuses []named `json:"issue_statuses"`
	}
	var pr struct {
		Priorities []named `json:"issue_priorities"`
	}
	if err := c.do(ctx, http.MethodGet, "/trackers.json", nil, 200, &tr); err != nil {
		return refs, err
	}
	if err := c.do(ctx, http.MethodGet, "/issue_statuses.json", nil, 200, &st); err != nil {
		return refs, err
	}
	if err := c.do(ctx, http.MethodGet, "/enumerations/issue_priorities.json", nil, 200, &pr); err != nil {
		return refs, err
	}
	for _, t := range tr.Trackers {
		refs.Trackers = append(refs.Trackers, t.ID)
	}
	for _, s := range st.Statuses {
		switch s.Name {
		case "New":
			refs.New = s.ID
		case "In Progress":
			refs.InProgress = s.ID
		case "Resolved":
			refs.Resolved = s.ID
		}
	}
	for _, p := range pr.Priorities {
		if p.Name == "High" {
			refs.Priority = p.ID
		}
	}
	if len(refs.Trackers) == 0 || refs.New == 0 || refs.InProgress == 0 || refs.Resolved == 0 || refs.Priority == 0 {
		return refs, fmt.Errorf("redmine default data incomplete: trackers %v, statuses %v, priorities %v", tr.Trackers, st.Statuses, pr.Priorities)
	}
	return refs, nil
}

// redmineProject is a project of the dataset with its assignable members.
type redmineProject struct {
	ID      int
	Members []int // users with an assignable role (Manager, Developer)
}

// Operation names: the seed study's two Redmine operations.
const (
	opCreateIssue   = "create_issue"
	opProcessIssues = "process_10_issues"
)

// redmineOps are the operations in the order the bench runs them.
var redmineOps = []string{opCreateIssue, opProcessIssues}

// createIssue is the seed's first operation: create an issue, assign it
// and add 10 comments (journal notes) — 12 requests. n varies the issue.
func (c *redmineClient) createIssue(ctx context.Context, refs redmineRefs, p redmineProject, n int) error {
	var created struct {
		Issue struct {
			ID int `json:"id"`
		} `json:"issue"`
	}
	body := map[string]any{"issue": map[string]any{
		"project_id": p.ID, "tracker_id": refs.Trackers[n%len(refs.Trackers)], "priority_id": refs.Priority,
		"subject":     fmt.Sprintf("Login page fails with 500 (bench %d)", n),
		"description": "Steps to reproduce: open /login, submit the form.\nExpected: the start page. Actual: HTTP 500.",
	}}
	if err := c.do(ctx, http.MethodPost, "/issues.json", body, http.StatusCreated, &created); err != nil {
		return err
	}
	path := "/issues/" + strconv.Itoa(created.Issue.ID) + ".json"
	assignee := p.Members[n%len(p.Members)]
	if err := c.do(ctx, http.MethodPut, path, map[string]any{"issue": map[string]any{"assigned_to_id": assignee}}, http.StatusNoContent, nil); err != nil {
		return err
	}
	for k := 1; k <= 10; k++ {
		note := map[string]any{"issue": map[string]any{"notes": fmt.Sprintf("Comment %d: reproduced here as well, see the log excerpt.", k)}}
		if err := c.do(ctx, http.MethodPut, path, note, http.StatusNoContent, nil); err != nil {
			return err
		}
	}
	return nil
}

// processIssues is the seed's second operation: take the project's 10
// oldest New issues and move each to In Progress, then to Resolved with
// a new assignee — 1 listing + 20 updates.
func (c *redmineClient) processIssues(ctx context.Context, refs redmineRefs, p redmineProject) error {
	var list struct {
		Issues []struct {
			ID         int    `json:"id"`
			AssignedTo *named `json:"assigned_to"`
		} `json:"issues"`
	}
	q := url.Values{"project_id": {strconv.Itoa(p.ID)}, "status_id": {strconv.Itoa(refs.New)}, "subproject_id": {"!*"},
		"sort": {"id"}, "limit": {"10"}}
	if err := c.do(ctx, http.MethodGet, "/issues.json?"+q.Encode(), nil, 200, &list); err != nil {
		return err
	}
	if len(list.Issues) < 10 {
		return fmt.Errorf("project %d has only %d New issues left", p.ID, len(list.Issues))
	}
	for k, is := range list.Issues {
		path := "/issues/" + strconv.Itoa(is.ID) + ".json"
		start := map[string]any{"issue": map[string]any{"status_id": refs.InProgress, "notes": "Working on it", "done_ratio": 50}}
		if err := c.do(ctx, http.MethodPut, path, start, http.StatusNoContent, nil); err != nil {
			return err
		}
		cur := 0
		if is.AssignedTo != nil {
			cur = is.AssignedTo.ID
		}
		next := p.Members[(k+1)%len(p.Members)]
		if next == cur {
			next = p.Members[(k+2)%len(p.Members)]
		}
		done := map[string]any{"issue": map[string]any{"status_id": refs.Resolved, "assigned_to_id": next,
			"notes": "Fixed, please verify", "done_ratio": 100}}
		if err := c.do(ctx, http.MethodPut, path, done, http.StatusNoContent, nil); err != nil {
			return err
		}
	}
	return nil
}
