<?php
// Router for PHP's built-in web server (scripts/compat/wordpress.sh): serve
// existing files as they are, send every other path to WordPress's
// index.php, as Apache's rewrite rules in Debian's /etc/wordpress/htaccess
// do, so pretty permalinks and /wp-json/ work.
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
$file = $_SERVER['DOCUMENT_ROOT'] . $path;
if ($path !== '/' && file_exists($file) && !is_dir($file)) {
	return false;
}
if (is_dir($file) && file_exists(rtrim($file, '/') . '/index.php')) {
	$_SERVER['SCRIPT_NAME'] = rtrim($path, '/') . '/index.php';
	require rtrim($file, '/') . '/index.php';
	return;
}
$_SERVER['SCRIPT_NAME'] = '/index.php';
require $_SERVER['DOCUMENT_ROOT'] . '/index.php';
