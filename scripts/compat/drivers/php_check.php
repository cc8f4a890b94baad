<?php
// PHP driver check against strata: mysqli (server-side prepared statements
// with bind_param) and PDO_MYSQL (ATTR_EMULATE_PREPARES off, so PDO also
// uses the binary protocol). Usage: php php_check.php (STRATA_HOST,
// STRATA_PORT from the environment). Prints OK lines, exits 1 on a mismatch.

$host = getenv('STRATA_HOST') ?: '127.0.0.1';
$port = (int)(getenv('STRATA_PORT') ?: 3306);
$tag = 'php ' . PHP_VERSION;

function check(string $name, $got, $want): void {
    global $tag;
    if ($got !== $want) {
        echo "FAIL [$tag] $name: got " . var_export($got, true) . ", want " . var_export($want, true) . "\n";
        exit(1);
    }
    echo "OK   [$tag] $name\n";
}

// ---- mysqli ----
mysqli_report(MYSQLI_REPORT_ERROR | MYSQLI_REPORT_STRICT);
$m = new mysqli($host, 'root', '', '', $port);
$m->set_charset('utf8mb4');
check('mysqli connect + server_info', str_starts_with($m->server_info, '8.0'), true);
$m->query('DROP DATABASE IF EXISTS drv_php');
$m->query('CREATE DATABASE drv_php');
$m->select_db('drv_php');
// COM_CHANGE_USER: the session is reset (user variables gone) and moves to
// the database given.
$m->query('SET @drv_php_var = 7');
check('mysqli change_user', $m->change_user('root', '', 'drv_php'), true);
$r = $m->query('SELECT DATABASE() AS db, @drv_php_var AS v')->fetch_assoc();
check('mysqli change_user resets the session', [$r['db'], $r['v']], ['drv_php', null]);
$m->query('CREATE TABLE account (
    id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    email VARCHAR(100) NOT NULL,
    balance DECIMAL(12,2) NOT NULL DEFAULT 0,
    opened DATE NULL,
    seen DATETIME NULL,
    note VARCHAR(50) NULL,
    UNIQUE KEY uk_email (email)
) ENGINE=InnoDB');
echo "OK   [$tag] mysqli CREATE TABLE\n";

$ins = $m->prepare('INSERT INTO account (email, balance, opened, seen, note) VALUES (?, ?, ?, ?, ?)');
$rows = [
    ['a@example.com', '100.50', '2024-02-29', '2024-02-29 23:59:59', 'first'],
    ['b@example.com', '-3.25', null, null, null],
    ['ü@example.com', '9999999999.99', '1970-01-01', '1970-01-01 00:00:01', 'ünï'],
];
foreach ($rows as $r) {
    [$e, $b, $o, $s, $n] = $r;
    $ins->bind_param('sssss', $e, $b, $o, $s, $n);
    $ins->execute();
}
check('mysqli prepared insert_id', $m->insert_id, 3);
$ins->close();

$sel = $m->prepare('SELECT email, balance, opened, seen, note FROM account WHERE id = ?');
$id = 1;
$sel->bind_param('i', $id);
$sel->execute();
$res = $sel->get_result()->fetch_row();
check('mysqli prepared select (binary protocol)', $res, ['a@example.com', '100.50', '2024-02-29', '2024-02-29 23:59:59', 'first']);
$id = 2;
$sel->execute();
check('mysqli NULLs (re-executed statement)', $sel->get_result()->fetch_row(), ['b@example.com', '-3.25', null, null, null]);
$sel->close();
$r = $m->query("SELECT email, balance, opened FROM account WHERE email LIKE 'ü%'")->fetch_row();
check('mysqli plain query, unicode, large decimal', $r, ['ü@example.com', '9999999999.99', '1970-01-01']);
$r = $m->query('SELECT SUM(balance), COUNT(opened), MAX(seen) FROM account')->fetch_row();
check('mysqli aggregates', $r, ['10000000097.24', '2', '2024-02-29 23:59:59']);

$m->begin_transaction();
$m->query("INSERT INTO account (email) VALUES ('tx@example.com')");
$m->query('UPDATE account SET balance = 0 WHERE id = 1');
$m->rollback();
check('mysqli rollback', $m->query("SELECT COUNT(*), (SELECT balance FROM account WHERE id = 1) FROM account WHERE email = 'tx@example.com'")->fetch_row(), ['0', '100.50']);
$m->begin_transaction();
$m->query("INSERT INTO account (email) VALUES ('tx@example.com')");
$m->commit();
check('mysqli commit', $m->query("SELECT COUNT(*) FROM account WHERE email = 'tx@example.com'")->fetch_row(), ['1']);
$m->query('UPDATE account SET note = NULL WHERE note IS NOT NULL');
check('mysqli affected_rows', $m->affected_rows, 2);
try {
    $m->query("INSERT INTO account (email) VALUES ('a@example.com')");
    check('mysqli duplicate key', 'no error', 'error 1062');
} catch (mysqli_sql_exception $e) {
    check('mysqli duplicate key error code', $e->getCode(), 1062);
    check('mysqli duplicate key SQLSTATE', $e->getSqlState(), '23000');
}
try {
    $m->query('SELECT nope FROM account');
    check('mysqli unknown column', 'no error', 'error 1054');
} catch (mysqli_sql_exception $e) {
    check('mysqli unknown column error code', $e->getCode(), 1054);
}
$m->close();

// ---- PDO ----
$pdo = new PDO("mysql:host=$host;port=$port;dbname=drv_php;charset=utf8mb4", 'root', '', [
    PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION,
    PDO::ATTR_EMULATE_PREPARES => false,
    PDO::ATTR_STRINGIFY_FETCHES => false,
]);
check('PDO connect', $pdo->query('SELECT 1 + 1')->fetchColumn(), 2);
$st = $pdo->prepare('SELECT id, email, balance, opened FROM account WHERE balance > :min AND email <> :skip ORDER BY id DESC LIMIT 2');
$st->execute([':min' => '-100', ':skip' => 'zzz']);
$all = $st->fetchAll(PDO::FETCH_NUM);
check('PDO named params, ORDER BY DESC LIMIT, native int', $all, [[5, 'tx@example.com', '0.00', null], [3, 'ü@example.com', '9999999999.99', '1970-01-01']]);
$st = $pdo->prepare('INSERT INTO account (email, balance, opened) VALUES (?, ?, ?)');
$st->bindValue(1, 'pdo@example.com');
$st->bindValue(2, '7.77');
$st->bindValue(3, null, PDO::PARAM_NULL);
$st->execute();
// Rolled-back and duplicate-key inserts consumed ids (as in InnoDB), so
// compare with the row's id rather than a constant.
check('PDO lastInsertId', $pdo->lastInsertId(), (string)$pdo->query("SELECT id FROM account WHERE email = 'pdo@example.com'")->fetchColumn());
$pdo->beginTransaction();
$pdo->exec("DELETE FROM account WHERE email = 'pdo@example.com'");
$pdo->rollBack();
check('PDO rollback', (int)$pdo->query("SELECT COUNT(*) FROM account WHERE email = 'pdo@example.com'")->fetchColumn(), 1);
$pdo->beginTransaction();
check('PDO exec row count', $pdo->exec("DELETE FROM account WHERE email = 'pdo@example.com'"), 1);
$pdo->commit();
check('PDO commit', (int)$pdo->query("SELECT COUNT(*) FROM account WHERE email = 'pdo@example.com'")->fetchColumn(), 0);
try {
    $pdo->prepare('INSERT INTO account (email) VALUES (?)')->execute(['b@example.com']);
    check('PDO duplicate key', 'no error', 'error 1062');
} catch (PDOException $e) {
    check('PDO duplicate key errorInfo', [$e->errorInfo[0], $e->errorInfo[1]], ['23000', 1062]);
}
$pdo->exec('DROP DATABASE drv_php');
echo "PASS [$tag]\n";
