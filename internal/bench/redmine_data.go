package bench

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// The Redmine dataset, modelled on the seed study's small one: users,
// projects with members and trackers, and issues with comments. Users,
// projects and memberships go through the REST API (a few dozen requests:
// Redmine builds their roles, modules and nested sets itself); the issues
// and their journals are bulk-inserted in SQL (thousands of rows in
// seconds instead of minutes of Ruby), as root issues of their own nested
// set (root_id = id, lft 1, rgt 2), exactly the rows Redmine writes for an
// issue without parent.

// redmineData sizes the dataset.
type redmineData struct {
	Users            int `json:"users"`
	Projects         int `json:"projects"`
	MembersPerProj   int `json:"members_per_project"`
	IssuesPerProject int `json:"issues_per_project"`
	JournalsPerIssue int `json:"journals_per_issue"`
}

// redmineDataFor is the dataset for a run with at most maxClients
// parallel clients: every client has a project of its own for the
// process-10-issues operation, so clients never update the same issue.
func redmineDataFor(quick bool, maxClients int) redmineData {
	d := redmineData{Users: 12, Projects: max(4, maxClients), MembersPerProj: 6, IssuesPerProject: 500, JournalsPerIssue: 2}
	if quick {
		d.IssuesPerProject = 150
	}
	return d
}

// Issues is the number of issues the dataset starts with.
func (d redmineData) Issues() int { return d.Projects * d.IssuesPerProject }

// seedRedmine creates the dataset through c and db (the engine, directly)
// and returns the projects.
func seedRedmine(ctx context.Context, c *redmineClient, db *sql.DB, refs redmineRefs, d redmineData) ([]redmineProject, error) {
	var roles struct {
		Roles []named `json:"roles"`
	}
	if err := c.do(ctx, http.MethodGet, "/roles.json", nil, 200, &roles); err != nil {
		return nil, err
	}
	roleID := map[string]int{}
	for _, r := range roles.Roles {
		roleID[r.Name] = r.ID
	}
	if roleID["Manager"] == 0 || roleID["Developer"] == 0 {
		return nil, fmt.Errorf("redmine roles: %v", roles.Roles)
	}
	users := make([]int, 0, d.Users)
	for i := 1; i <= d.Users; i++ {
		var u struct {
			User struct {
				ID int `json:"id"`
			} `json:"user"`
		}
		login := fmt.Sprintf("dev%02d", i)
		body := map[string]any{"user": map[string]any{"login": login, "firstname": "Dev", "lastname": fmt.Sprintf("Number %d", i),
			"mail": login + "@example.net", "password": "bench-password-" + login, "must_change_passwd": false}}
		if err := c.do(ctx, http.MethodPost, "/users.json", body, http.StatusCreated, &u); err != nil {
			return nil, err
		}
		users = append(users, u.User.ID)
	}
	projects := make([]redmineProject, 0, d.Projects)
	for i := 1; i <= d.Projects; i++ {
		var p struct {
			Project struct {
				ID int `json:"id"`
			} `json:"project"`
		}
		body := map[string]any{"project": map[string]any{"name": fmt.Sprintf("Project %d", i), "identifier": fmt.Sprintf("bench-%d", i),
			"is_public": true, "tracker_ids": refs.Trackers, "enabled_module_names": []string{"issue_tracking", "time_tracking", "wiki"}}}
		if err := c.do(ctx, http.MethodPost, "/projects.json", body, http.StatusCreated, &p); err != nil {
			return nil, err
		}
		proj := redmineProject{ID: p.Project.ID}
		for k := 0; k < d.MembersPerProj; k++ {
			uid := users[(i*3+k)%len(users)]
			role := roleID["Developer"]
			if k == 0 {
				role = roleID["Manager"]
			}
			body := map[string]any{"membership": map[string]any{"user_id": uid, "role_ids": []int{role}}}
			if err := c.do(ctx, http.MethodPost, fmt.Sprintf("/projects/%d/memberships.json", proj.ID), body, http.StatusCreated, nil); err != nil {
				return nil, err
			}
			proj.Members = append(proj.Members, uid)
		}
		projects = append(projects, proj)
	}
	if err := insertRedmineIssues(ctx, db, refs, projects, d); err != nil {
		return nil, err
	}
	return projects, nil
}

// redmineBatch is the rows per multi-row INSERT.
const redmineBatch = 200

// insertRedmineIssues bulk-inserts the issues and their journals.
func insertRedmineIssues(ctx context.Context, db *sql.DB, refs redmineRefs, projects []redmineProject, d redmineData) error {
	var next int64
	if err := db.QueryRowContext(ctx, "SELECT COALESCE(MAX(id), 0) + 1 FROM issues").Scan(&next); err != nil {
		return fmt.Errorf("redmine dataset: %w", err)
	}
	now := time.Now().UTC().Add(-24 * time.Hour)
	var issues, journals []string
	flush := func(force bool) error {
		if len(issues) >= redmineBatch || (force && len(issues) > 0) {
			q := "INSERT INTO issues (id, tracker_id, project_id, subject, description, due_date, status_id, assigned_to_id, priority_id, author_id, lock_version, created_on, updated_on, start_date, done_ratio, estimated_hours, parent_id, root_id, lft, rgt, is_private) VALUES " + strings.Join(issues, ",")
			if _, err := db.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("redmine dataset: insert issues: %w", err)
			}
			issues = issues[:0]
		}
		if len(journals) >= redmineBatch || (force && len(journals) > 0) {
			q := "INSERT INTO journals (journalized_id, journalized_type, user_id, notes, created_on, private_notes) VALUES " + strings.Join(journals, ",")
			if _, err := db.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("redmine dataset: insert journals: %w", err)
			}
			journals = journals[:0]
		}
		return nil
	}
	n := 0
	for k := 0; k < d.IssuesPerProject; k++ {
		for _, p := range projects {
			id := next
			next++
			n++
			created := now.Add(time.Duration(n) * time.Second)
			ts := created.Format("2006-01-02 15:04:05")
			assignee := p.Members[n%len(p.Members)]
			author := p.Members[(n+1)%len(p.Members)]
			issues = append(issues, fmt.Sprintf("(%d, %d, %d, 'Dataset issue %d: %s', 'Description of issue %d.\\nSecond line.', '2024-%02d-%02d', %d, %d, %d, %d, 0, '%s', '%s', '2024-01-01', 0, %d.5, NULL, %d, 1, 2, 0)",
				id, refs.Trackers[n%len(refs.Trackers)], p.ID, n, [...]string{"crash on save", "slow listing", "typo in footer", "export fails"}[n%4], n,
				1+n%12, 1+n%28, refs.New, assignee, refs.Priority, author, ts, ts, n%7, id))
			for j := 1; j <= d.JournalsPerIssue; j++ {
				journals = append(journals, fmt.Sprintf("(%d, 'Issue', %d, 'Comment %d on issue %d: looks fine to me.', '%s', 0)",
					id, p.Members[(n+j)%len(p.Members)], j, id, created.Add(time.Duration(j)*time.Minute).Format("2006-01-02 15:04:05")))
			}
			if err := flush(false); err != nil {
				return err
			}
		}
	}
	return flush(true)
}

// resetRedmineIssues puts every In Progress or Resolved issue back to New
// (between process-10-issues steps, untimed), so every step finds the
// same pool of New issues.
func resetRedmineIssues(ctx context.Context, db *sql.DB, refs redmineRefs) error {
	_, err := db.ExecContext(ctx, "UPDATE issues SET status_id = ?, done_ratio = 0 WHERE status_id IN (?, ?)", refs.New, refs.InProgress, refs.Resolved)
	if err != nil {
		return fmt.Errorf("redmine: reset issues to New: %w", err)
	}
	return nil
}
