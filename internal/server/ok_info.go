package server

// The info string of an OK packet ("Records: 3  Deleted: 0  Skipped: 0
// Warnings: 0" after LOAD DATA, "Records: 2  Duplicates: 0  Warnings: 0"
// after a multi-row INSERT, "Rows matched: ..." after UPDATE), which the
// mysql client prints and mysqlimport reports: Vitess writes every OK
// packet with an empty one. The connection wrapper below Vitess adds it:
// the session's result carries the text (sqltypes.Result.Info), send
// flushes what Vitess has buffered, so the OK packet Vitess writes next
// starts the next write to the socket, and cmdConn.Write appends the text
// to that packet.
//
// Vitess does not announce CLIENT_SESSION_TRACK; MySQL's server then
// writes the info as a length-encoded string at the end of the packet
// (net_send_ok), and that is what clients read (libmysqlclient, MariaDB
// Connector/C). Not under TLS, where the socket carries encrypted records.

// sendInfo arranges for info to go with the OK packet Vitess writes next.
func (cs *conn) sendInfo(info string) {
	cc, ok := cs.c.GetRawConn().(*cmdConn)
	if !ok || cs.c.TLSEnabled() {
		return
	}
	if cs.c.FlushWriteBuffer() != nil {
		return
	}
	cc.okInfo.Store(&info)
}

// Write implements net.Conn for Vitess's writes; it adds a pending info
// string to the OK packet at the start of p.
func (c *cmdConn) Write(p []byte) (int, error) {
	if !c.greeted.Load() {
		c.greeted.Store(true)
		if q, ok := withLocalFiles(p); ok {
			if _, err := c.Conn.Write(q); err != nil {
				return 0, err
			}
			return len(p), nil
		}
	}
	if c.okInfo.Load() == nil {
		return c.Conn.Write(p)
	}
	info := *c.okInfo.Swap(nil)
	out, ok := withInfo(p, info)
	if !ok {
		return c.Conn.Write(p)
	}
	if _, err := c.Conn.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// withInfo returns p with info appended to the OK packet p starts with;
// false when p does not start with a whole OK packet without an info.
func withInfo(p []byte, info string) ([]byte, bool) {
	if len(p) < 5 || p[4] != 0x00 {
		return nil, false
	}
	length := int(p[0]) | int(p[1])<<8 | int(p[2])<<16
	if length < 7 || 4+length > len(p) {
		return nil, false
	}
	// header, affected rows, last insert id, status, warnings: the info
	// must be empty (the packet ends after the warnings).
	pos := 5
	for k := 0; k < 2; k++ {
		n, ok := lenEncSize(p[pos:])
		if !ok {
			return nil, false
		}
		pos += n
	}
	pos += 4
	if pos != 4+length {
		return nil, false
	}
	if len(info) > 250 {
		info = info[:250] // a one-byte length
	}
	newLen := length + 1 + len(info)
	out := make([]byte, 0, len(p)+1+len(info))
	out = append(out, byte(newLen), byte(newLen>>8), byte(newLen>>16), p[3])
	out = append(out, p[4:4+length]...)
	out = append(out, byte(len(info)))
	out = append(out, info...)
	out = append(out, p[4+length:]...)
	return out, true
}

// lenEncSize is the size of the length-encoded integer b starts with.
func lenEncSize(b []byte) (int, bool) {
	if len(b) == 0 {
		return 0, false
	}
	n := 1
	switch b[0] {
	case 0xfc:
		n = 3
	case 0xfd:
		n = 4
	case 0xfe:
		n = 9
	case 0xfb, 0xff:
		return 0, false
	}
	return n, len(b) >= n
}
