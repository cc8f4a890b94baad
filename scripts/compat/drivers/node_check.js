// Node mysql2 driver check against strata: connection.execute (server-side
// prepared statements, binary protocol) and connection.query (text
// protocol). Usage: NODE_PATH=<dir>/node_modules node node_check.js
// (STRATA_HOST, STRATA_PORT from the environment). Prints OK lines and
// exits 1 on the first mismatch.
'use strict';
const assert = require('node:assert');
const mysql = require('mysql2/promise');

const tag = 'node mysql2 ' + require('mysql2/package.json').version;

function check(name, got, want) {
  try {
    assert.deepStrictEqual(got, want);
  } catch (e) {
    console.log(`FAIL [${tag}] ${name}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
    process.exit(1);
  }
  console.log(`OK   [${tag}] ${name}`);
}

async function errno(p) {
  try {
    await p;
  } catch (e) {
    return e.errno;
  }
  return null;
}

function connect() {
  return mysql.createConnection({
    host: process.env.STRATA_HOST || '127.0.0.1',
    port: Number(process.env.STRATA_PORT || 3306),
    user: 'root',
    charset: 'utf8mb4',
    dateStrings: true,
    decimalNumbers: false,
    supportBigNumbers: true,
    bigNumberStrings: true,
  });
}

async function main() {
  let c = await connect();
  const [[v]] = await c.query('SELECT VERSION() AS v');
  check('connect + VERSION()', v.v.startsWith('8.0'), true);
  await c.query('DROP DATABASE IF EXISTS drv_node');
  await c.query('CREATE DATABASE drv_node');
  // COM_CHANGE_USER (connection pools reset connections with it): the
  // session is reset (user variables gone) and moves to the database.
  await c.query('SET @drv_node_var = 7');
  await c.changeUser({ database: 'drv_node' });
  const [[cu]] = await c.query('SELECT DATABASE() AS db, @drv_node_var AS v, CURRENT_USER() AS u');
  check('changeUser (COM_CHANGE_USER): database set, session reset', [cu.db, cu.v, cu.u], ['drv_node', null, 'root@localhost']);
  check('changeUser with a wrong password fails with 1045',
    await errno(connect().then((x) => x.changeUser({ user: 'root', password: 'not-the-password' }))), 1045);
  await c.query('USE drv_node');
  await c.query(`CREATE TABLE event (
      id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
      code CHAR(8) NOT NULL,
      amount DECIMAL(15,4),
      day DATE,
      at DATETIME(3),
      payload JSON NULL,
      flag TINYINT(1) NOT NULL DEFAULT 0,
      UNIQUE KEY uk_code (code)
  ) ENGINE=InnoDB`);
  console.log(`OK   [${tag}] CREATE TABLE`);

  const [res] = await c.execute(
    'INSERT INTO event (code, amount, day, at, payload, flag) VALUES (?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?)',
    ['A1', '12345678901.2345', '2024-02-29', '2024-02-29 10:11:12.345', '{"k": [1, 2]}', 1,
     'B2', null, null, null, null, 0]);
  check('execute multi-row insert affectedRows/insertId', [res.affectedRows, res.insertId], [2, 1]);

  const [rows] = await c.execute('SELECT id, code, amount, day, at, payload, flag FROM event WHERE id IN (?, ?) ORDER BY id', [1, 2]);
  check('execute select (binary protocol): decimal/date/datetime(3)/json', rows[0],
    { id: '1', code: 'A1', amount: '12345678901.2345', day: '2024-02-29', at: '2024-02-29 10:11:12.345', payload: { k: [1, 2] }, flag: 1 });
  check('execute select NULLs', rows[1], { id: '2', code: 'B2', amount: null, day: null, at: null, payload: null, flag: 0 });
  const [trows] = await c.query("SELECT code, amount, day FROM event WHERE code = 'A1'");
  check('query (text protocol)', trows, [{ code: 'A1', amount: '12345678901.2345', day: '2024-02-29' }]);
  const [[agg]] = await c.execute('SELECT COUNT(amount) AS n, SUM(amount) AS s, DATEDIFF(?, MIN(day)) AS dd FROM event', ['2024-03-10']);
  // COUNT() is BIGINT, which bigNumberStrings returns as a string.
  check('aggregates with parameter', [Number(agg.n), agg.s, Number(agg.dd)], [1, '12345678901.2345', 10]);
  // The same prepared statement re-executed with different parameter types.
  for (const p of [1, '1', 1.0]) {
    const [[r]] = await c.execute('SELECT code FROM event WHERE id = ?', [p]);
    check(`re-execute with ${typeof p} parameter`, r.code, 'A1');
  }

  await c.beginTransaction();
  await c.execute('INSERT INTO event (code) VALUES (?)', ['RB']);
  await c.execute('UPDATE event SET flag = 9 WHERE id = ?', [1]);
  await c.rollback();
  const [[rb]] = await c.query("SELECT (SELECT COUNT(*) FROM event WHERE code = 'RB') AS n, (SELECT flag FROM event WHERE id = 1) AS f");
    // Number(): strata types every scalar-subquery column BIGINT (MySQL keeps
  // the inner column's TINYINT), which bigNumberStrings returns as a string.
  check('rollback', [Number(rb.n), Number(rb.f)], [0, 1]);
  await c.beginTransaction();
  await c.execute('INSERT INTO event (code) VALUES (?)', ['CM']);
  await c.commit();
  const [[cm]] = await c.query("SELECT COUNT(*) AS n FROM event WHERE code = 'CM'");
  check('commit', Number(cm.n), 1);

  check('duplicate key errno (execute)', await errno(c.execute('INSERT INTO event (code) VALUES (?)', ['A1'])), 1062);
  check('duplicate key errno (query)', await errno(c.query("INSERT INTO event (code) VALUES ('A1')")), 1062);
  check('data too long errno', await errno(c.execute('INSERT INTO event (code) VALUES (?)', ['123456789'])), 1406);
  check('syntax error errno', await errno(c.query('SELEC 1')), 1064);
  const [[after]] = await c.query('SELECT 1 AS one');
  check('connection usable after errors', Number(after.one), 1);

  await c.query('DROP DATABASE drv_node');
  await c.end();
  console.log(`PASS [${tag}]`);
}

main().catch((e) => {
  console.log(`FAIL [${tag}] unexpected error: ${e.stack}`);
  process.exit(1);
});
