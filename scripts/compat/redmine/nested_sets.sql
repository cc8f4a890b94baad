-- Nested-set consistency of Redmine's issues and projects, run by
-- scripts/compat/redmine.sh. Every query prints a label and a count of
-- violations, which must be 0.
SELECT 'issues: rgt <= lft', COUNT(*) FROM issues WHERE rgt <= lft;
SELECT 'issues: root without root_id = id', COUNT(*) FROM issues WHERE parent_id IS NULL AND root_id <> id;
SELECT 'issues: child outside parent', COUNT(*) FROM issues c JOIN issues p ON c.parent_id = p.id
  WHERE NOT (c.root_id = p.root_id AND c.lft > p.lft AND c.rgt < p.rgt);
SELECT 'issues: tree bounds', COUNT(*) FROM (SELECT root_id FROM issues GROUP BY root_id
  HAVING MIN(lft) <> 1 OR MAX(rgt) <> 2 * COUNT(*)) t;
SELECT 'issues: duplicate lft/rgt', COUNT(*) FROM (SELECT root_id, v FROM
  (SELECT root_id, lft AS v FROM issues UNION ALL SELECT root_id, rgt FROM issues) b
  GROUP BY root_id, v HAVING COUNT(*) > 1) d;
SELECT 'projects: rgt <= lft', COUNT(*) FROM projects WHERE rgt <= lft;
SELECT 'projects: child outside parent', COUNT(*) FROM projects c JOIN projects p ON c.parent_id = p.id
  WHERE NOT (c.lft > p.lft AND c.rgt < p.rgt);
SELECT 'projects: bounds', COUNT(*) FROM (SELECT 1 FROM projects HAVING MIN(lft) <> 1 OR MAX(rgt) <> 2 * COUNT(*)) t;
