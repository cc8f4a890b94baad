// JDBC check against strata with MariaDB Connector/J (Debian's
// libmariadb-java), server-side prepared statements on. Usage:
//   java -cp /usr/share/java/mariadb-java-client.jar JdbcCheck.java
// (STRATA_HOST, STRATA_PORT from the environment). Prints OK lines and
// exits 1 on the first mismatch.
import java.math.BigDecimal;
import java.sql.*;
import java.util.Objects;

public class JdbcCheck {
    static String tag = "jdbc";

    static void check(String name, Object got, Object want) {
        if (!Objects.equals(got, want)) {
            System.out.println("FAIL [" + tag + "] " + name + ": got " + got + ", want " + want);
            System.exit(1);
        }
        System.out.println("OK   [" + tag + "] " + name);
    }

    static Integer errorCode(Statement s, String sql) {
        try {
            s.execute(sql);
        } catch (SQLException e) {
            return e.getErrorCode();
        }
        return null;
    }

    public static void main(String[] args) throws Exception {
        String host = Objects.requireNonNullElse(System.getenv("STRATA_HOST"), "127.0.0.1");
        String port = Objects.requireNonNullElse(System.getenv("STRATA_PORT"), "3306");
        String url = "jdbc:mariadb://" + host + ":" + port + "/?user=root&useServerPrepStmts=true";
        try (Connection c = DriverManager.getConnection(url)) {
            tag = "jdbc " + c.getMetaData().getDriverName() + " " + c.getMetaData().getDriverVersion();
            check("connect + product version", c.getMetaData().getDatabaseProductVersion().startsWith("8.0"), true);
            Statement s = c.createStatement();
            s.execute("DROP DATABASE IF EXISTS drv_jdbc");
            s.execute("CREATE DATABASE drv_jdbc");
            c.setCatalog("drv_jdbc");
            s.execute("CREATE TABLE invoice (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, ref VARCHAR(20) NOT NULL,"
                    + " total DECIMAL(12,3), issued DATE, paid TIMESTAMP(3) NULL, memo VARCHAR(40) NULL, UNIQUE KEY uk_ref (ref)) ENGINE=InnoDB");
            System.out.println("OK   [" + tag + "] CREATE TABLE");

            PreparedStatement ins = c.prepareStatement("INSERT INTO invoice (ref, total, issued, paid, memo) VALUES (?, ?, ?, ?, ?)",
                    Statement.RETURN_GENERATED_KEYS);
            ins.setString(1, "INV-1");
            ins.setBigDecimal(2, new BigDecimal("1234567.891"));
            ins.setDate(3, Date.valueOf("2024-02-29"));
            ins.setTimestamp(4, Timestamp.valueOf("2024-03-01 08:09:10.123"));
            ins.setString(5, "first");
            check("prepared insert update count", ins.executeUpdate(), 1);
            ResultSet keys = ins.getGeneratedKeys();
            keys.next();
            check("generated key", keys.getLong(1), 1L);
            ins.setString(1, "INV-2");
            ins.setNull(2, Types.DECIMAL);
            ins.setNull(3, Types.DATE);
            ins.setNull(4, Types.TIMESTAMP);
            ins.setNull(5, Types.VARCHAR);
            ins.executeUpdate();

            PreparedStatement sel = c.prepareStatement("SELECT ref, total, issued, paid, memo FROM invoice WHERE id = ?");
            sel.setInt(1, 1);
            ResultSet r = sel.executeQuery();
            r.next();
            check("decimal", r.getBigDecimal(2), new BigDecimal("1234567.891"));
            check("date", r.getDate(3), Date.valueOf("2024-02-29"));
            check("timestamp(3)", r.getTimestamp(4), Timestamp.valueOf("2024-03-01 08:09:10.123"));
            sel.setInt(1, 2);
            r = sel.executeQuery();
            r.next();
            r.getBigDecimal(2);
            check("NULL decimal wasNull", r.wasNull(), true);
            check("NULL date", r.getDate(3), null);
            check("NULL varchar", r.getString(5), null);

            c.setAutoCommit(false);
            s.executeUpdate("INSERT INTO invoice (ref) VALUES ('RB')");
            c.rollback();
            r = s.executeQuery("SELECT COUNT(*) FROM invoice WHERE ref = 'RB'");
            r.next();
            check("rollback", r.getInt(1), 0);
            s.executeUpdate("INSERT INTO invoice (ref) VALUES ('CM')");
            c.commit();
            c.setAutoCommit(true);
            r = s.executeQuery("SELECT COUNT(*) FROM invoice WHERE ref = 'CM'");
            r.next();
            check("commit", r.getInt(1), 1);

            PreparedStatement batch = c.prepareStatement("INSERT INTO invoice (ref, total) VALUES (?, ?)");
            for (int i = 0; i < 5; i++) {
                batch.setString(1, "B" + i);
                batch.setBigDecimal(2, new BigDecimal(i + ".5"));
                batch.addBatch();
            }
            check("batch insert", batch.executeBatch().length, 5);
            r = s.executeQuery("SELECT SUM(total) FROM invoice WHERE ref LIKE 'B%'");
            r.next();
            check("SUM over batch rows", r.getBigDecimal(1), new BigDecimal("12.500"));

            check("duplicate key error code", errorCode(s, "INSERT INTO invoice (ref) VALUES ('INV-1')"), 1062);
            try {
                s.execute("INSERT INTO invoice (ref) VALUES ('INV-1')");
            } catch (SQLIntegrityConstraintViolationException e) {
                check("duplicate key SQLState", e.getSQLState(), "23000");
            }
            check("unknown table error code", errorCode(s, "SELECT * FROM nope"), 1146);
            s.execute("DROP DATABASE drv_jdbc");
        }
        System.out.println("PASS [" + tag + "]");
    }
}
