# frozen_string_literal: true

# Drives Redmine's REST API for scripts/compat/redmine.sh: builds a dataset
# (users, projects with subprojects, memberships, issues with parents and
# comments), runs the create-issue and process-10-issues operations and
# filtered/sorted listings, and checks every response's HTTP code and key
# fields against what it created. Plain Ruby (net/http, json), no gems.
#
# Environment: REDMINE_URL, REDMINE_API_KEY, API_THREADS (default 4).
# Exits 1 with a message on the first failed check; prints "SUMMARY" and
# counts/timings last.

require 'json'
require 'net/http'
require 'uri'

BASE = URI(ENV.fetch('REDMINE_URL'))
API_KEY = ENV.fetch('REDMINE_API_KEY')
THREADS = Integer(ENV.fetch('API_THREADS', '4'))

N_USERS = 30
N_TOP_PROJECTS = 4
N_SUBPROJECTS = 2 # per top-level project
MEMBERS_PER_PROJECT = 8
N_PARENTS = 20 # root issues with children
N_CHILDREN = 120 # children of the parents
N_GRANDCHILDREN = 30 # children of children
N_PLAIN = 40 # issues without hierarchy
COMMENTS_PER_ISSUE = 2
HTTP_TIMEOUT = 60

class CheckFailed < StandardError; end

def check(cond, msg)
  raise CheckFailed, msg unless cond
end

# One keep-alive connection; counts requests.
class Client
  @@mutex = Mutex.new
  @@requests = 0

  def self.requests
    @@requests
  end

  def initialize
    @http = Net::HTTP.new(BASE.host, BASE.port)
    @http.open_timeout = 10
    @http.read_timeout = HTTP_TIMEOUT
    @http.write_timeout = HTTP_TIMEOUT
    @http.keep_alive_timeout = 30
    @http.start
  end

  # request(:get, "/issues.json", body, expect: 200) -> parsed JSON or nil
  def request(method, path, body = nil, expect:, as: nil)
    klass = { get: Net::HTTP::Get, post: Net::HTTP::Post, put: Net::HTTP::Put,
              delete: Net::HTTP::Delete }.fetch(method)
    req = klass.new(path)
    req['X-Redmine-API-Key'] = API_KEY
    req['Accept'] = 'application/json'
    req['X-Redmine-Switch-User'] = as if as # admin acting as another user
    if body
      req['Content-Type'] = 'application/json'
      req.body = JSON.generate(body)
    end
    resp = nil
    begin
      resp = @http.request(req)
    rescue Net::ReadTimeout, Net::OpenTimeout, Errno::ECONNRESET, EOFError, IOError => e
      raise CheckFailed, "#{method.upcase} #{path}: #{e.class}: #{e.message}"
    end
    @@mutex.synchronize { @@requests += 1 }
    code = resp.code.to_i
    unless Array(expect).include?(code)
      raise CheckFailed, "#{method.upcase} #{path} #{body && JSON.generate(body)[0, 300]}: " \
                         "HTTP #{code}, expected #{expect}: #{resp.body.to_s[0, 600]}"
    end
    b = resp.body.to_s
    return nil if b.strip.empty?

    JSON.parse(b)
  rescue JSON::ParserError => e
    raise CheckFailed, "#{method.upcase} #{path}: response is not JSON (#{e.message}): #{resp.body.to_s[0, 300]}"
  end

  def get(path, expect: 200, as: nil) = request(:get, path, expect: expect, as: as)
  def post(path, body, expect: 201) = request(:post, path, body, expect: expect)
  def put(path, body, expect: 204) = request(:put, path, body, expect: expect)
  def delete(path, expect: 204) = request(:delete, path, expect: expect)
end

CLIENTS = Array.new(THREADS) { Client.new }
C = CLIENTS[0]

# pmap(items) { |client, item| ... } runs the block on THREADS clients;
# returns the results in order; re-raises the first failure.
def pmap(items)
  queue = Queue.new
  items.each_with_index { |it, i| queue << [it, i] }
  results = Array.new(items.size)
  failure = nil
  fmutex = Mutex.new
  threads = CLIENTS.map do |client|
    Thread.new do
      loop do
        break if fmutex.synchronize { failure }

        item, i = begin
          queue.pop(true)
        rescue ThreadError
          break
        end
        begin
          results[i] = yield(client, item)
        rescue StandardError => e
          fmutex.synchronize { failure ||= e }
          break
        end
      end
    end
  end
  threads.each(&:join)
  raise failure if failure

  results
end

TIMINGS = []
COUNTS = Hash.new(0)

def timed(name)
  t = Time.now
  before = Client.requests
  r = yield
  dt = Time.now - t
  n = Client.requests - before
  TIMINGS << format('%-38s %7.2fs %5d requests %7.1f ms/request', name, dt, n, n.positive? ? dt * 1000 / n : 0)
  puts "  #{TIMINGS.last}"
  $stdout.flush
  r
end

# All pages of a listing (limit 100), checking total_count is stable.
def list_all(path, key)
  sep = path.include?('?') ? '&' : '?'
  items = []
  offset = 0
  total = nil
  loop do
    r = C.get("#{path}#{sep}limit=100&offset=#{offset}")
    total ||= r['total_count']
    check(r['total_count'] == total, "#{path}: total_count changed between pages (#{total} -> #{r['total_count']})")
    items.concat(r.fetch(key))
    offset += 100
    break if offset >= total
  end
  check(items.size == total, "#{path}: got #{items.size} items over all pages, total_count #{total}")
  ids = items.map { |x| x['id'] }
  check(ids.uniq.size == ids.size, "#{path}: duplicate ids across pages")
  items
end

begin
  puts "Redmine REST API at #{BASE} with #{THREADS} clients"

  # ------------------------------------------------------------ reference data
  trackers = statuses = priorities = roles = nil
  timed('reference data') do
    trackers = C.get('/trackers.json')['trackers'].to_h { |t| [t['name'], t['id']] }
    statuses = C.get('/issue_statuses.json')['issue_statuses'].to_h { |s| [s['name'], s['id']] }
    priorities = C.get('/enumerations/issue_priorities.json')['issue_priorities'].to_h { |p| [p['name'], p['id']] }
    roles = C.get('/roles.json')['roles'].to_h { |r| [r['name'], r['id']] }
  end
  %w[Bug Feature Support].each { |t| check(trackers[t], "tracker #{t} missing: #{trackers}") }
  ['New', 'In Progress', 'Resolved', 'Closed'].each { |s| check(statuses[s], "status #{s} missing: #{statuses}") }
  %w[Low Normal High Urgent].each { |p| check(priorities[p], "priority #{p} missing: #{priorities}") }
  %w[Manager Developer Reporter].each { |r| check(roles[r], "role #{r} missing: #{roles}") }
  tracker_ids = trackers.values

  # ------------------------------------------------------------ users
  users = timed("create #{N_USERS} users") do
    pmap((1..N_USERS).to_a) do |c, i|
      login = format('user%02d', i)
      u = c.post('/users.json', { user: { login: login, firstname: "First#{i}", lastname: "Last#{format('%02d', i)}",
                                          mail: "#{login}@example.net", password: "secret-password-#{i}",
                                          must_change_passwd: false } })['user']
      check(u && u['login'] == login && u['id'].is_a?(Integer), "user #{login}: bad response #{u}")
      u
    end
  end
  COUNTS['users'] = users.size
  user_ids = users.map { |u| u['id'] }
  timed('check users') do
    all = list_all('/users.json?status=1', 'users')
    check(all.size == N_USERS + 1, "users listed: #{all.size}, expected #{N_USERS + 1} (with admin)")
    # LIKE under a case-insensitive collation: 'USER1' matches user10..user19.
    r = C.get('/users.json?name=USER1&limit=100')
    logins = r['users'].map { |u| u['login'] }.sort
    check(logins == (10..19).map { |i| "user#{i}" }, "users?name=USER1 returned #{logins}")
    u = C.get("/users/#{user_ids[4]}.json")['user']
    check(u['login'] == 'user05' && u['mail'] == 'user05@example.net', "GET user: #{u}")
  end

  # ------------------------------------------------------------ projects
  projects = [] # {id, identifier, parent}
  timed("create #{N_TOP_PROJECTS * (1 + N_SUBPROJECTS)} projects (2 levels)") do
    (1..N_TOP_PROJECTS).each do |i|
      p = C.post('/projects.json', { project: { name: "Project #{i}", identifier: "proj-#{i}", is_public: true,
                                                description: "Top-level project #{i}", tracker_ids: tracker_ids,
                                                enabled_module_names: %w[issue_tracking time_tracking wiki] } })['project']
      check(p && p['identifier'] == "proj-#{i}", "project proj-#{i}: bad response #{p}")
      projects << { id: p['id'], identifier: p['identifier'], parent: nil }
    end
    tops = projects.dup
    # subprojects in parallel: concurrent nested-set inserts into projects
    subs = pmap(tops.product((1..N_SUBPROJECTS).to_a)) do |c, (top, j)|
      ident = "#{top[:identifier]}-sub-#{j}"
      p = c.post('/projects.json', { project: { name: "#{top[:identifier]} sub #{j}", identifier: ident, is_public: true,
                                                parent_id: top[:id], tracker_ids: tracker_ids,
                                                enabled_module_names: %w[issue_tracking time_tracking] } })['project']
      check(p && p['identifier'] == ident && p.dig('parent', 'id') == top[:id], "subproject #{ident}: bad response #{p}")
      { id: p['id'], identifier: ident, parent: top[:id] }
    end
    projects.concat(subs)
  end
  COUNTS['projects'] = projects.size
  timed('check projects') do
    all = list_all('/projects.json', 'projects')
    check(all.size == projects.size, "projects listed: #{all.size}, expected #{projects.size}")
    projects.each do |p|
      got = all.find { |x| x['id'] == p[:id] }
      check(got, "project #{p[:identifier]} not listed")
      check(got.dig('parent', 'id') == p[:parent], "project #{p[:identifier]}: parent #{got['parent']}, expected #{p[:parent]}")
    end
    p = C.get("/projects/#{projects[0][:identifier]}.json?include=trackers,enabled_modules")['project']
    check(p['trackers'].size == 3, "project trackers: #{p['trackers']}")
    check(p['enabled_modules'].map { |m| m['name'] }.include?('issue_tracking'), "modules: #{p['enabled_modules']}")
  end

  # ------------------------------------------------------------ memberships
  members = {} # project id -> [user ids] (assignable: Manager/Developer)
  mships = projects.each_with_index.flat_map do |p, pi|
    (0...MEMBERS_PER_PROJECT).map do |k|
      uid = user_ids[(pi * 3 + k) % user_ids.size]
      role = k.zero? ? 'Manager' : (k < 6 ? 'Developer' : 'Reporter')
      [p, uid, role]
    end
  end
  timed("create #{mships.size} memberships") do
    pmap(mships) do |c, (p, uid, role)|
      m = c.post("/projects/#{p[:id]}/memberships.json", { membership: { user_id: uid, role_ids: [roles[role]] } })['membership']
      check(m && m.dig('user', 'id') == uid && m['roles'].map { |r| r['id'] } == [roles[role]], "membership: #{m}")
    end
  end
  mships.each { |p, uid, role| (members[p[:id]] ||= []) << uid unless role == 'Reporter' }
  COUNTS['memberships'] = mships.size
  timed('check memberships') do
    projects.each do |p|
      r = C.get("/projects/#{p[:id]}/memberships.json?limit=100")
      check(r['total_count'] == MEMBERS_PER_PROJECT, "#{p[:identifier]}: #{r['total_count']} memberships, expected #{MEMBERS_PER_PROJECT}")
    end
  end

  # ------------------------------------------------------------ issues
  issues = {} # id -> {project, parent, assigned, subject, tracker, priority}
  imutex = Mutex.new
  prio_names = %w[Low Normal High Urgent]
  create_issue = lambda do |c, n, project, parent|
    assignee = members[project[:id]][n % members[project[:id]].size]
    tracker = tracker_ids[n % tracker_ids.size]
    prio = priorities[prio_names[n % prio_names.size]]
    subject = "#{parent ? 'Child' : 'Parent'} issue #{n} in #{project[:identifier]}"
    body = { issue: { project_id: project[:id], tracker_id: tracker, subject: subject,
                      description: "Description of issue #{n}.\nSecond line with unicode: é ü 漢字",
                      priority_id: prio, assigned_to_id: assignee,
                      start_date: '2024-01-01', due_date: format('2024-%02d-%02d', 1 + (n % 12), 1 + (n % 28)),
                      estimated_hours: (n % 7) + 0.5 } }
    body[:issue][:parent_issue_id] = parent if parent
    i = c.post('/issues.json', body)['issue']
    check(i && i['id'].is_a?(Integer) && i['subject'] == subject, "issue #{n}: bad response #{i}")
    check(i.dig('assigned_to', 'id') == assignee, "issue #{n}: assigned_to #{i['assigned_to']}, expected #{assignee}")
    check(i.dig('project', 'id') == project[:id], "issue #{n}: project #{i['project']}")
    check(i.dig('parent', 'id') == parent, "issue #{n}: parent #{i['parent']}, expected #{parent}") if parent
    check(i.dig('status', 'id') == statuses['New'], "issue #{n}: status #{i['status']}")
    imutex.synchronize do
      issues[i['id']] = { project: project[:id], parent: parent, assigned: assignee, subject: subject,
                          tracker: tracker, priority: prio, status: statuses['New'], journals: 0 }
    end
    i['id']
  end

  parents = timed("create #{N_PARENTS} parent issues") do
    pmap((1..N_PARENTS).to_a) { |c, n| create_issue.call(c, n, projects[n % projects.size], nil) }
  end
  # children of the same parent are created concurrently (nested-set locking)
  children = timed("create #{N_CHILDREN} child issues") do
    pmap((1..N_CHILDREN).to_a) do |c, n|
      parent = parents[n % parents.size]
      project = projects.find { |p| p[:id] == issues[parent][:project] }
      create_issue.call(c, 1000 + n, project, parent)
    end
  end
  timed("create #{N_GRANDCHILDREN} grandchild issues") do
    pmap((1..N_GRANDCHILDREN).to_a) do |c, n|
      parent = children[(n * 7) % children.size]
      project = projects.find { |p| p[:id] == issues[parent][:project] }
      create_issue.call(c, 2000 + n, project, parent)
    end
  end
  timed("create #{N_PLAIN} issues without parent") do
    pmap((1..N_PLAIN).to_a) { |c, n| create_issue.call(c, 3000 + n, projects[n % projects.size], nil) }
  end
  COUNTS['issues (dataset)'] = issues.size

  timed("add #{COMMENTS_PER_ISSUE} comments to each issue") do
    # one issue's comments in sequence: concurrent updates of one issue
    # conflict on lock_version (HTTP 422), as they would on MySQL
    pmap(issues.keys) do |c, id|
      (1..COMMENTS_PER_ISSUE).each do |k|
        c.put("/issues/#{id}.json", { issue: { notes: "Comment #{k} on issue #{id}: looks *fine* to me." } })
        imutex.synchronize { issues[id][:journals] += 1 }
      end
    end
  end
  COUNTS['comments (dataset)'] = issues.size * COMMENTS_PER_ISSUE

  timed('check issues and hierarchy') do
    all = list_all('/issues.json?status_id=*&sort=id', 'issues')
    check(all.size == issues.size, "issues listed: #{all.size}, expected #{issues.size}")
    check(all.map { |i| i['id'] } == issues.keys.sort, 'issues sorted by id: ids differ from the created ones')
    all.each do |i|
      want = issues[i['id']]
      check(i.dig('parent', 'id') == want[:parent], "issue #{i['id']}: parent #{i['parent']}, expected #{want[:parent]}")
      check(i.dig('assigned_to', 'id') == want[:assigned], "issue #{i['id']}: assignee #{i['assigned_to']}")
    end
    parents.first(5).each do |pid|
      i = C.get("/issues/#{pid}.json?include=children,journals")['issue']
      want = issues.select { |_, v| v[:parent] == pid }.keys.sort
      got = i['children'].map { |ch| ch['id'] }.sort
      check(got == want, "issue #{pid}: children #{got}, expected #{want}")
      check(i['journals'].count { |j| j['notes'].to_s.start_with?('Comment ') } == COMMENTS_PER_ISSUE,
            "issue #{pid}: #{i['journals'].size} journals")
      r = C.get("/issues.json?parent_id=#{pid}&status_id=*&limit=100")
      check(r['total_count'] == want.size, "issues?parent_id=#{pid}: #{r['total_count']}, expected #{want.size}")
    end
  end

  # ------------------------------------------------------------ create-issue operation
  op_project = projects[N_TOP_PROJECTS] # a subproject
  op_id = nil
  timed('operation: create issue + assign + 10 comments') do
    i = C.post('/issues.json', { issue: { project_id: op_project[:id], tracker_id: trackers['Bug'],
                                          subject: 'Operation: login page fails with 500',
                                          description: 'Steps to reproduce: ...', priority_id: priorities['High'] } })['issue']
    op_id = i['id']
    check(i['assigned_to'].nil?, "new issue already assigned: #{i['assigned_to']}")
    assignee = members[op_project[:id]][1]
    C.put("/issues/#{op_id}.json", { issue: { assigned_to_id: assignee } })
    (1..10).each { |k| C.put("/issues/#{op_id}.json", { issue: { notes: "Operation comment #{k}" } }) }
    got = C.get("/issues/#{op_id}.json?include=journals")['issue']
    check(got.dig('assigned_to', 'id') == assignee, "operation issue: assignee #{got['assigned_to']}, expected #{assignee}")
    notes = got['journals'].map { |j| j['notes'] }.reject { |n| n.nil? || n.empty? }
    check(notes == (1..10).map { |k| "Operation comment #{k}" }, "operation issue: journal notes #{notes}")
    check(got['journals'].size == 11, "operation issue: #{got['journals'].size} journals, expected 11 (assign + 10)")
    issues[op_id] = { project: op_project[:id], parent: nil, assigned: assignee, status: statuses['New'] }
  end
  COUNTS['create-issue operations'] = 1

  # ------------------------------------------------------------ process-10-issues operation
  timed('operation: process 10 issues') do
    proj = projects[1]
    r = C.get("/projects/#{proj[:id]}/issues.json?status_id=#{statuses['New']}&subproject_id=!*&sort=id&limit=100")
    # leaves only: a parent's done ratio is derived from its children
    todo = r['issues'].reject { |i| issues.any? { |_, v| v[:parent] == i['id'] } }.first(10)
    check(todo.size == 10, "process: only #{todo.size} New issues in #{proj[:identifier]}")
    pool = members[proj[:id]]
    todo.each_with_index do |i, k|
      id = i['id']
      C.put("/issues/#{id}.json", { issue: { status_id: statuses['In Progress'], notes: 'Working on it', done_ratio: 50 } })
      got = C.get("/issues/#{id}.json")['issue']
      check(got.dig('status', 'id') == statuses['In Progress'], "issue #{id}: status #{got['status']} after In Progress")
      new_assignee = pool[(pool.index(issues[id][:assigned]).to_i + 1 + k) % pool.size]
      new_assignee = pool[(pool.index(new_assignee) + 1) % pool.size] if new_assignee == issues[id][:assigned]
      C.put("/issues/#{id}.json", { issue: { status_id: statuses['Resolved'], assigned_to_id: new_assignee,
                                             notes: 'Fixed, please verify', done_ratio: 100 } })
      got = C.get("/issues/#{id}.json?include=journals")['issue']
      check(got.dig('status', 'id') == statuses['Resolved'], "issue #{id}: status #{got['status']} after Resolved")
      check(got.dig('assigned_to', 'id') == new_assignee, "issue #{id}: assignee #{got['assigned_to']}, expected #{new_assignee}")
      check(got['done_ratio'] == 100, "issue #{id}: done_ratio #{got['done_ratio']}")
      status_changes = got['journals'].flat_map { |j| j['details'] }.select { |d| d['name'] == 'status_id' }
      check(status_changes.map { |d| d['new_value'].to_i } == [statuses['In Progress'], statuses['Resolved']],
            "issue #{id}: status journal details #{status_changes}")
      issues[id][:assigned] = new_assignee
      issues[id][:status] = statuses['Resolved']
    end
    r = C.get("/issues.json?status_id=#{statuses['Resolved']}&limit=100")
    check(r['total_count'] == 10, "Resolved issues: #{r['total_count']}, expected 10")
  end
  COUNTS['processed issues'] = 10

  # ------------------------------------------------------------ listings: filters and sorting
  timed('listings: filters and sorting') do
    total = issues.size
    r = C.get('/issues.json?status_id=*&limit=1')
    check(r['total_count'] == total, "all issues: #{r['total_count']}, expected #{total}")
    r = C.get('/issues.json?status_id=open&limit=1')
    check(r['total_count'] == total, "open issues: #{r['total_count']}, expected #{total} (Resolved is open)")
    r = C.get('/issues.json?status_id=closed&limit=1')
    check(r['total_count'].zero?, "closed issues: #{r['total_count']}")

    # project with and without subprojects
    top = projects[0]
    sub_ids = projects.select { |p| p[:parent] == top[:id] }.map { |p| p[:id] }
    want_with = issues.count { |_, v| v[:project] == top[:id] || sub_ids.include?(v[:project]) }
    want_only = issues.count { |_, v| v[:project] == top[:id] }
    r = C.get("/issues.json?project_id=#{top[:id]}&status_id=*&limit=1")
    check(r['total_count'] == want_with, "project #{top[:identifier]} with subprojects: #{r['total_count']}, expected #{want_with}")
    r = C.get("/issues.json?project_id=#{top[:id]}&subproject_id=!*&status_id=*&limit=1")
    check(r['total_count'] == want_only, "project #{top[:identifier]} only: #{r['total_count']}, expected #{want_only}")

    # assignee filter + sort by priority desc, then id
    uid = members[projects[2][:id]][0]
    want = issues.select { |_, v| v[:assigned] == uid }.keys
    got = list_all("/issues.json?assigned_to_id=#{uid}&status_id=*&sort=priority:desc,id", 'issues')
    check(got.map { |i| i['id'] }.sort == want.sort, "assigned_to_id=#{uid}: #{got.size} issues, expected #{want.size}")
    prio_pos = prio_names.each_with_index.to_h { |n, k| [priorities[n], k] }
    keys = got.map { |i| [-prio_pos.fetch(i.dig('priority', 'id'), 0), i['id']] }
    check(keys == keys.sort, "sort=priority:desc,id: wrong order #{got.map { |i| [i['id'], i.dig('priority', 'name')] }.first(10)}")

    # subject contains (LIKE, case-insensitive), tracker filter, sort by subject
    got = list_all('/issues.json?status_id=*&subject=~PARENT%20ISSUE&sort=subject,id', 'issues')
    want = issues.count { |_, v| v[:subject].to_s.start_with?('Parent issue') }
    check(got.size == want, "subject~'PARENT ISSUE': #{got.size}, expected #{want}")
    subjects = got.map { |i| i['subject'].downcase }
    check(subjects == subjects.sort, 'sort=subject: not sorted')
    tid = trackers['Feature']
    r = C.get("/issues.json?status_id=*&tracker_id=#{tid}&limit=1")
    want = issues.count { |_, v| v[:tracker] == tid }
    check(r['total_count'] == want, "tracker_id=#{tid}: #{r['total_count']}, expected #{want}")

    # dates: created today, due date range, sort by due date desc
    yesterday = (Time.now - 86_400).strftime('%Y-%m-%d')
    r = C.get("/issues.json?status_id=*&created_on=%3E%3D#{yesterday}&limit=1")
    check(r['total_count'] == total, "created_on>=yesterday: #{r['total_count']}, expected #{total}")
    got = list_all('/issues.json?status_id=*&due_date=%3E%3C2024-03-01%7C2024-04-30&sort=due_date:desc,id', 'issues')
    due = got.map { |i| i['due_date'] }
    check(due.all? { |d| d >= '2024-03-01' && d <= '2024-04-30' }, "due_date between: #{due.uniq}")
    check(due == due.sort.reverse, 'sort=due_date:desc: not sorted')
    check(!due.empty?, 'due_date between: no issues')

    # issue_id list, sort by assignee (join users), updated_on desc
    ids = issues.keys.sort.first(5)
    r = C.get("/issues.json?issue_id=#{ids.join(',')}&status_id=*&sort=id:desc")
    check(r['issues'].map { |i| i['id'] } == ids.reverse, "issue_id=#{ids}: #{r['issues'].map { |i| i['id'] }}")
    r = C.get('/issues.json?status_id=*&sort=assigned_to,id&limit=100')
    check(r['issues'].size == 100, 'sort=assigned_to: expected a full page')
    r = C.get('/issues.json?status_id=*&sort=updated_on:desc&limit=25')
    upd = r['issues'].map { |i| i['updated_on'] }
    check(upd == upd.sort.reverse, 'sort=updated_on:desc: not sorted')

    # status, and a project's issue list by tracker then priority
    r = C.get("/issues.json?status_id=#{statuses['In Progress']}|#{statuses['Resolved']}&limit=1")
    check(r['total_count'] == 10, "status In Progress|Resolved: #{r['total_count']}, expected 10")
    # visibility filters of non-admin users (EXISTS / IN / NOT IN subqueries
    # on members, roles and enabled modules): a private issue is seen by
    # the project's Manager (visibility 'all'), not by a non-member
    priv = C.post('/issues.json', { issue: { project_id: projects[0][:id], tracker_id: trackers['Bug'],
                                             subject: 'Private issue', is_private: true,
                                             priority_id: priorities['Normal'] } })['issue']
    check(priv['is_private'] == true, "private issue: is_private #{priv['is_private']}")
    issues[priv['id']] = { project: projects[0][:id], parent: nil, status: statuses['New'], subject: 'Private issue' }
    manager = users[0]['login'] # Manager of projects[0] (memberships above)
    outsider = users[N_USERS - 1]['login'] # member of the last projects only
    check(mships.none? { |p, uid, _| p[:id] == projects[0][:id] && uid == users[N_USERS - 1]['id'] }, 'outsider is a member')
    r = C.get('/issues.json?status_id=*&limit=1', as: outsider)
    check(r['total_count'] == issues.size - 1, "non-member sees #{r['total_count']} issues, expected #{issues.size - 1}")
    r = C.get('/issues.json?status_id=*&limit=1', as: manager)
    check(r['total_count'] == issues.size, "manager sees #{r['total_count']} issues, expected #{issues.size}")
    C.get("/issues/#{priv['id']}.json", as: outsider, expect: 403)
    r = C.get("/issues.json?project_id=#{projects[0][:id]}&assigned_to_id=me&status_id=open&sort=priority:desc,updated_on:desc&limit=100", as: manager)
    want = issues.count { |_, v| v[:assigned] == users[0]['id'] && (v[:project] == projects[0][:id] || projects.any? { |p| p[:parent] == projects[0][:id] && p[:id] == v[:project] }) }
    check(r['total_count'] == want, "assigned_to_id=me as #{manager}: #{r['total_count']}, expected #{want}")

    r = C.get("/projects/#{projects[3][:identifier]}/issues.json?status_id=*&sort=tracker,priority:desc&limit=100")
    check(r['total_count'] == issues.count { |_, v| v[:project] == projects[3][:id] || projects.any? { |p| p[:parent] == projects[3][:id] && p[:id] == v[:project] } },
          "project #{projects[3][:identifier]} issues: #{r['total_count']}")
  end

  # ------------------------------------------------------------ hierarchy changes
  timed('hierarchy: move and delete') do
    # move a child (with its own children) under another parent, in another tree
    moved = children.find { |c| issues.any? { |_, v| v[:parent] == c } }
    target = parents.find { |p| p != issues[moved][:parent] && issues[p][:project] == issues[moved][:project] } ||
             parents.find { |p| p != issues[moved][:parent] }
    if issues[target][:project] != issues[moved][:project]
      C.put("/issues/#{moved}.json", { issue: { project_id: issues[target][:project] } })
      issues.each { |_, v| v[:project] = issues[target][:project] if v[:parent] == moved }
      issues[moved][:project] = issues[target][:project]
    end
    C.put("/issues/#{moved}.json", { issue: { parent_issue_id: target } })
    issues[moved][:parent] = target
    got = C.get("/issues/#{target}.json?include=children")['issue']
    check(got['children'].any? { |ch| ch['id'] == moved }, "issue #{moved} not a child of #{target} after move")
    moved_child = got['children'].find { |ch| ch['id'] == moved }
    want_gc = issues.select { |_, v| v[:parent] == moved }.keys.sort
    check((moved_child['children'] || []).map { |x| x['id'] }.sort == want_gc, "moved issue's children: #{moved_child['children']}")
    # make a child a root issue
    loose = children.find { |c| c != moved && issues[c][:parent] != moved && issues.none? { |_, v| v[:parent] == c } }
    C.put("/issues/#{loose}.json", { issue: { parent_issue_id: '' } })
    issues[loose][:parent] = nil
    got = C.get("/issues/#{loose}.json")['issue']
    check(got['parent'].nil?, "issue #{loose}: still has parent #{got['parent']}")
    # delete a leaf and a parent with its subtree
    leaf = children.find { |c| c != moved && c != loose && issues.none? { |_, v| v[:parent] == c } }
    C.delete("/issues/#{leaf}.json")
    C.get("/issues/#{leaf}.json", expect: 404)
    issues.delete(leaf)
    doomed = parents.find { |p| p != target && p != issues[moved][:parent] }
    subtree = [doomed]
    loop do
      more = issues.select { |_, v| subtree.include?(v[:parent]) }.keys - subtree
      break if more.empty?

      subtree.concat(more)
    end
    C.delete("/issues/#{doomed}.json")
    subtree.each { |id| C.get("/issues/#{id}.json", expect: 404) }
    subtree.each { |id| issues.delete(id) }
    r = C.get('/issues.json?status_id=*&limit=1')
    check(r['total_count'] == issues.size, "after deletes: #{r['total_count']} issues, expected #{issues.size}")
    COUNTS['issues deleted'] = subtree.size + 1
  end

  # ------------------------------------------------------------ optimistic locking
  timed('optimistic locking (lock_version)') do
    # the issue has been updated (comments), so lock_version 0 is stale
    id = issues.keys.max
    C.put("/issues/#{id}.json", { issue: { subject: 'stale write', lock_version: 0 } }, expect: 422)
    got = C.get("/issues/#{id}.json")['issue']
    check(got['subject'] != 'stale write', "issue #{id}: stale write was applied")
    C.put("/issues/#{id}.json", { issue: { subject: 'fresh write' } })
    got = C.get("/issues/#{id}.json")['issue']
    check(got['subject'] == 'fresh write', "issue #{id}: subject #{got['subject']} after write")
  end

  COUNTS['issues (final)'] = issues.size
  COUNTS['HTTP requests'] = Client.requests
  puts 'SUMMARY'
  COUNTS.each { |k, v| puts format('  %-26s %6d', k, v) }
  puts 'API timings:'
  TIMINGS.each { |t| puts "  #{t}" }
rescue CheckFailed => e
  warn "FAIL: #{e.message}"
  exit 1
end
