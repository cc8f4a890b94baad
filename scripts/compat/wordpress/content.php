<?php
// WordPress content driver for scripts/compat/wordpress.sh: run with the
// PHP CLI from the WordPress tree. Creates users, categories, tags, posts,
// pages and comments through WordPress's own API (so through its SQL), then
// reads them back with WP_Query, searches and term counts; prints one
// "ok ..." line per check and exits 1 on the first failure. The last line
// is a JSON summary the shell script reads (ids and counts it checks over
// HTTP).
define('WP_USE_THEMES', false);
require getenv('WP_TREE') . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/user.php';
require_once ABSPATH . 'wp-admin/includes/post.php';

$posts_n = (int) (getenv('WP_POSTS') ?: 40);

function fail($msg) {
	global $wpdb;
	fwrite(STDERR, "FAIL: $msg\n");
	if ($wpdb->last_error) {
		fwrite(STDERR, "last SQL error: {$wpdb->last_error}\nlast query: {$wpdb->last_query}\n");
	}
	exit(1);
}
function check($cond, $msg) {
	if (!$cond) {
		fail($msg);
	}
	echo "ok $msg\n";
}
function must($v, $what) {
	if (is_wp_error($v)) {
		fail("$what: " . $v->get_error_message());
	}
	if (!$v) {
		fail("$what returned " . var_export($v, true));
	}
	return $v;
}

// Users: an editor and two authors.
$users = [];
foreach (['editor' => 'editor', 'alice' => 'author', 'bob' => 'author'] as $login => $role) {
	$users[$login] = must(wp_insert_user([
		'user_login' => $login,
		'user_pass' => "pw-$login-123",
		'user_email' => "$login@example.com",
		'display_name' => ucfirst($login),
		'role' => $role,
	]), "wp_insert_user $login");
}
check(count(get_users(['role' => 'author'])) === 2, 'two authors listed by role (usermeta capabilities LIKE query)');
check(get_user_by('email', 'alice@example.com')->ID === $users['alice'], 'user found by email');
update_user_meta($users['bob'], 'strata_note', 'likes LSM trees');
check(get_user_meta($users['bob'], 'strata_note', true) === 'likes LSM trees', 'user meta round trip');

// Categories (one nested) and tags.
$cats = [];
foreach (['Databases', 'Storage', 'Compaction'] as $i => $name) {
	$args = $name === 'Compaction' ? ['parent' => $cats['Storage']] : [];
	$t = must(wp_insert_term($name, 'category', $args), "wp_insert_term category $name");
	$cats[$name] = $t['term_id'];
}
$tags = ['lsm', 'mysql', 'pebble', 'benchmark'];
check(count(get_categories(['hide_empty' => false])) >= 4, 'categories listed (Uncategorized + 3)');
check(get_term($cats['Compaction'])->parent === $cats['Storage'], 'nested category parent');

// Posts with categories, tags, meta, excerpts; a few drafts and one sticky.
$authors = [$users['alice'], $users['bob'], $users['editor']];
$catNames = array_keys($cats);
$ids = [];
for ($i = 1; $i <= $posts_n; $i++) {
	$status = $i % 10 === 0 ? 'draft' : 'publish';
	$id = must(wp_insert_post([
		'post_title' => "Post $i about " . ($i % 3 === 0 ? 'write amplification' : 'space amplification'),
		'post_content' => "<!-- wp:paragraph --><p>Body of post $i. LSM trees trade read work for write work; this is paragraph $i.</p><!-- /wp:paragraph -->",
		'post_excerpt' => "Excerpt $i",
		'post_status' => $status,
		'post_author' => $authors[$i % 3],
		'post_date' => date('Y-m-d H:i:s', strtotime('2026-01-01 10:00:00') + $i * 3600),
		'post_category' => [$cats[$catNames[$i % 3]]],
		'tags_input' => [$tags[$i % 4], $tags[($i + 1) % 4]],
		'meta_input' => ['strata_rank' => $i, 'strata_flag' => $i % 2 ? 'odd' : 'even'],
	], true), "wp_insert_post $i");
	$ids[] = $id;
}
stick_post($ids[4]);
$published = (int) wp_count_posts('post')->publish;
check($published === $posts_n - intdiv($posts_n, 10) + 1, "published post count $published (Hello world! included)");
check((int) wp_count_posts('post')->draft === intdiv($posts_n, 10), 'draft count');

// Pages, one a child of another.
$about = must(wp_insert_post(['post_title' => 'About strata', 'post_type' => 'page', 'post_status' => 'publish', 'post_content' => 'An LSM database.'], true), 'page About');
$team = must(wp_insert_post(['post_title' => 'Team', 'post_type' => 'page', 'post_status' => 'publish', 'post_parent' => $about, 'post_content' => 'People.'], true), 'page Team');
check(count(get_pages(['child_of' => $about])) === 1, 'child page listed');

// Comments, threaded, one pending.
$c1 = must(wp_insert_comment(['comment_post_ID' => $ids[0], 'comment_author' => 'Reader', 'comment_author_email' => 'r@example.com', 'comment_content' => 'Great post on compaction.', 'comment_approved' => 1]), 'comment 1');
must(wp_insert_comment(['comment_post_ID' => $ids[0], 'comment_author' => 'Alice', 'user_id' => $users['alice'], 'comment_content' => 'Thanks!', 'comment_parent' => $c1, 'comment_approved' => 1]), 'reply');
must(wp_insert_comment(['comment_post_ID' => $ids[1], 'comment_author' => 'Spammer', 'comment_content' => 'Buy now', 'comment_approved' => 0]), 'pending comment');
wp_update_comment_count_now($ids[0]);
check((int) get_comments_number($ids[0]) === 2, 'comment count of the first post');
check(count(get_comments(['status' => 'hold'])) === 1, 'pending comments listed');

// Queries WordPress themes and widgets run.
$q = new WP_Query(['s' => 'write amplification', 'sentence' => true, 'posts_per_page' => -1]);
$expect = 0;
for ($i = 1; $i <= $posts_n; $i++) {
	if ($i % 3 === 0 && $i % 10 !== 0) {
		$expect++;
	}
}
check($q->found_posts === $expect, "search found {$q->found_posts} posts (want $expect)");
$q = new WP_Query(['cat' => $cats['Storage'], 'posts_per_page' => 5, 'paged' => 2]);
check($q->max_num_pages >= 1 && count($q->posts) <= 5, 'category archive page 2 (SQL_CALC_FOUND_ROWS + LIMIT offset)');
$q = new WP_Query(['tag' => 'pebble', 'posts_per_page' => -1, 'fields' => 'ids']);
check($q->found_posts > 0, "tag query found {$q->found_posts}");
$q = new WP_Query(['meta_key' => 'strata_rank', 'orderby' => 'meta_value_num', 'order' => 'DESC', 'posts_per_page' => 3, 'ignore_sticky_posts' => true]);
check(count($q->posts) === 3 && (int) get_post_meta($q->posts[0]->ID, 'strata_rank', true) >= $posts_n - 1, 'order by numeric meta value');
$q = new WP_Query(['meta_query' => [['key' => 'strata_flag', 'value' => 'odd'], ['key' => 'strata_rank', 'value' => 10, 'compare' => '<', 'type' => 'NUMERIC']], 'posts_per_page' => -1]);
check($q->found_posts === 5, "meta_query AND with a numeric cast: {$q->found_posts}");
$q = new WP_Query(['author' => $users['bob'], 'date_query' => [['after' => '2026-01-01', 'inclusive' => true]], 'posts_per_page' => -1]);
check($q->found_posts > 0, 'author + date_query');
$q = new WP_Query(['tax_query' => ['relation' => 'OR', ['taxonomy' => 'post_tag', 'field' => 'slug', 'terms' => ['lsm']], ['taxonomy' => 'category', 'field' => 'term_id', 'terms' => [$cats['Compaction']], 'include_children' => false]], 'posts_per_page' => -1]);
check($q->found_posts > 0, 'tax_query OR');
$tag = get_term_by('slug', 'mysql', 'post_tag');
check($tag && $tag->count > 0, "tag count maintained ({$tag->count})");
check(count(wp_get_archives(['type' => 'monthly', 'echo' => false, 'format' => 'custom']) ? [1] : []) === 1, 'monthly archives');

// Updates and deletes.
must(wp_update_post(['ID' => $ids[2], 'post_title' => 'Renamed post'], true), 'wp_update_post');
check(get_post($ids[2])->post_title === 'Renamed post', 'title updated');
check(wp_get_post_revisions($ids[2]) !== null, 'revisions listed');
must(wp_trash_post($ids[3]), 'trash post');
check(get_post_status($ids[3]) === 'trash', 'post trashed');
must(wp_delete_post($ids[3], true), 'delete post');
check(get_post($ids[3]) === null, 'post deleted with its meta and term relationships');
check((int) $wpdb->get_var($wpdb->prepare("SELECT COUNT(*) FROM {$wpdb->term_relationships} WHERE object_id = %d", $ids[3])) === 0, 'term relationships removed');
update_option('strata_option', ['a' => 1, 'b' => [2, 3]]);
check(get_option('strata_option')['b'][1] === 3, 'serialized option round trip');
set_transient('strata_transient', 'value', 3600);
check(get_transient('strata_transient') === 'value', 'transient round trip');

// The REST search the shell script makes, after post 3 lost its title.
$q = new WP_Query(['s' => '"write amplification"', 'posts_per_page' => -1, 'fields' => 'ids']);
check($q->found_posts === $expect - 1, "quoted-phrase search after the rename: {$q->found_posts}");

// Pretty permalinks (the shell script's web server routes every path to
// index.php), so /wp-json/ and /YYYY/MM/slug/ resolve.
global $wp_rewrite;
$wp_rewrite->set_permalink_structure('/%year%/%monthnum%/%postname%/');
$wp_rewrite->flush_rules();
check(get_permalink($ids[0]) === home_url('/2026/01/' . get_post($ids[0])->post_name . '/'), 'pretty permalink of the first post');

// An application password for the REST API writes the shell script makes
// (available over plain HTTP because wp-config.php sets
// WP_ENVIRONMENT_TYPE to 'local').
$admin = get_user_by('login', 'admin');
$app = WP_Application_Passwords::create_new_application_password($admin->ID, ['name' => 'strata-compat']);
if (is_wp_error($app)) {
	fail('application password: ' . $app->get_error_message());
}
check(strlen($app[0]) > 0, 'application password created');

echo json_encode([
	'app_password' => $app[0],
	'first' => $ids[0],
	'first_link' => wp_make_link_relative(get_permalink($ids[0])),
	'sticky' => $ids[4],
	'published' => $published - 1, // one deleted above
	'page' => $about,
	'cat_storage' => $cats['Storage'],
	'search_expect' => $expect - 1,
	'alice' => $users['alice'],
]) . "\n";
