package binlog

import (
	"encoding/binary"
	"errors"
	"math"
	"sort"
	"strconv"

	"vitess.io/vitess/go/mysql/json"
)

// MySQL's binary JSON (json_binary.h): a type byte, then the value.
const (
	jsonSmallObject = 0x00
	jsonLargeObject = 0x01
	jsonSmallArray  = 0x02
	jsonLargeArray  = 0x03
	jsonLiteral     = 0x04
	jsonInt16       = 0x05
	jsonUint16      = 0x06
	jsonInt32       = 0x07
	jsonUint32      = 0x08
	jsonInt64       = 0x09
	jsonUint64      = 0x0a
	jsonDouble      = 0x0b
	jsonString      = 0x0c

	jsonNull  = 0x00
	jsonTrue  = 0x01
	jsonFalse = 0x02
)

// errJSONTooBig: a document past the large format's 4 GiB offsets.
var errJSONTooBig = errors.New("binlog: JSON document too large")

// errJSONType: a JSON value of a type text cannot hold (dates, opaque).
var errJSONType = errors.New("binlog: JSON value type without a binary encoding here")

// appendJSONText appends the JSON text doc in MySQL's binary format.
func appendJSONText(b []byte, doc []byte) ([]byte, error) {
	var p json.Parser
	v, err := p.ParseBytes(doc)
	if err != nil {
		return b, err
	}
	typ, body, err := jsonValue(v)
	if err != nil {
		return b, err
	}
	b = append(b, typ)
	return append(b, body...), nil
}

// jsonValue encodes v as its type byte and value bytes.
func jsonValue(v *json.Value) (byte, []byte, error) {
	switch v.Type() {
	case json.TypeNull:
		return jsonLiteral, []byte{jsonNull}, nil
	case json.TypeBoolean:
		if t, _ := v.Bool(); t {
			return jsonLiteral, []byte{jsonTrue}, nil
		}
		return jsonLiteral, []byte{jsonFalse}, nil
	case json.TypeString:
		s, _ := v.StringBytes()
		return jsonString, append(appendVarLen(nil, len(s)), s...), nil
	case json.TypeNumber:
		return jsonNumber(v)
	case json.TypeObject:
		o, _ := v.Object()
		return jsonContainer(o, nil)
	case json.TypeArray:
		a, _ := v.Array()
		return jsonContainer(nil, a)
	}
	return 0, nil, errJSONType
}

// jsonNumber encodes a number as MySQL types it: an integer in the
// smallest of int16/int32/int64 (uint16/32/64 beyond int64), else a double.
func jsonNumber(v *json.Value) (byte, []byte, error) {
	switch v.NumberType() {
	case json.NumberTypeSigned:
		i, _ := v.Int64()
		switch {
		case i >= math.MinInt16 && i <= math.MaxInt16:
			return jsonInt16, binary.LittleEndian.AppendUint16(nil, uint16(i)), nil
		case i >= math.MinInt32 && i <= math.MaxInt32:
			return jsonInt32, binary.LittleEndian.AppendUint32(nil, uint32(i)), nil
		}
		return jsonInt64, binary.LittleEndian.AppendUint64(nil, uint64(i)), nil
	case json.NumberTypeUnsigned:
		u, _ := v.Uint64()
		switch {
		case u <= math.MaxUint16:
			return jsonUint16, binary.LittleEndian.AppendUint16(nil, uint16(u)), nil
		case u <= math.MaxUint32:
			return jsonUint32, binary.LittleEndian.AppendUint32(nil, uint32(u)), nil
		}
		return jsonUint64, binary.LittleEndian.AppendUint64(nil, u), nil
	}
	f, err := strconv.ParseFloat(v.Raw(), 64)
	if err != nil {
		return 0, nil, errJSONType
	}
	return jsonDouble, binary.LittleEndian.AppendUint64(nil, math.Float64bits(f)), nil
}

// jsonInlined reports whether a value of type typ sits in its entry.
func jsonInlined(typ byte, large bool) bool {
	switch typ {
	case jsonLiteral, jsonInt16, jsonUint16:
		return true
	case jsonInt32, jsonUint32:
		return large
	}
	return false
}

type jsonMember struct {
	key  string
	typ  byte
	body []byte
}

// jsonContainer encodes an object (o) or an array (a), small when its
// offsets fit 16 bits, else large.
func jsonContainer(o *json.Object, a []*json.Value) (byte, []byte, error) {
	var ms []jsonMember
	if o != nil {
		var err error
		o.Visit(func(k string, v *json.Value) {
			if err != nil {
				return
			}
			var m jsonMember
			m.key = k
			m.typ, m.body, err = jsonValue(v)
			ms = append(ms, m)
		})
		if err != nil {
			return 0, nil, err
		}
		// MySQL orders keys by length, then bytes.
		sort.SliceStable(ms, func(i, j int) bool {
			if len(ms[i].key) != len(ms[j].key) {
				return len(ms[i].key) < len(ms[j].key)
			}
			return ms[i].key < ms[j].key
		})
	} else {
		for _, v := range a {
			typ, body, err := jsonValue(v)
			if err != nil {
				return 0, nil, err
			}
			ms = append(ms, jsonMember{typ: typ, body: body})
		}
	}
	if b, ok := jsonLayout(ms, o != nil, false); ok {
		if o != nil {
			return jsonSmallObject, b, nil
		}
		return jsonSmallArray, b, nil
	}
	b, ok := jsonLayout(ms, o != nil, true)
	if !ok {
		return 0, nil, errJSONTooBig
	}
	if o != nil {
		return jsonLargeObject, b, nil
	}
	return jsonLargeArray, b, nil
}

// jsonLayout lays out a container: count, size, key entries, value
// entries, keys, values; ok is false when an offset does not fit.
func jsonLayout(ms []jsonMember, object, large bool) ([]byte, bool) {
	w := 2
	if large {
		w = 4
	}
	limit := uint64(math.MaxUint16)
	if large {
		limit = math.MaxUint32
	}
	put := func(b []byte, x uint64) []byte {
		if large {
			return binary.LittleEndian.AppendUint32(b, uint32(x))
		}
		return binary.LittleEndian.AppendUint16(b, uint16(x))
	}
	header := 2 * w
	if object {
		header += len(ms) * (w + 2)
	}
	header += len(ms) * (1 + w)
	// Offsets of keys, then of non-inlined values.
	off := uint64(header)
	keyOff := make([]uint64, len(ms))
	if object {
		for i, m := range ms {
			keyOff[i] = off
			if len(m.key) > math.MaxUint16 {
				return nil, false
			}
			off += uint64(len(m.key))
		}
	}
	valOff := make([]uint64, len(ms))
	for i, m := range ms {
		if jsonInlined(m.typ, large) {
			continue
		}
		valOff[i] = off
		off += uint64(len(m.body))
	}
	if off > limit {
		return nil, false
	}
	b := make([]byte, 0, off)
	b = put(b, uint64(len(ms)))
	b = put(b, off)
	if object {
		for i, m := range ms {
			b = put(b, keyOff[i])
			b = binary.LittleEndian.AppendUint16(b, uint16(len(m.key)))
		}
	}
	for i, m := range ms {
		b = append(b, m.typ)
		if jsonInlined(m.typ, large) {
			var slot [4]byte
			copy(slot[:], m.body)
			b = append(b, slot[:w]...)
			continue
		}
		b = put(b, valOff[i])
	}
	if object {
		for _, m := range ms {
			b = append(b, m.key...)
		}
	}
	for i, m := range ms {
		if !jsonInlined(m.typ, large) {
			_ = i
			b = append(b, m.body...)
		}
	}
	return b, true
}

// appendVarLen appends a string length as MySQL's variable-length
// integer: 7 bits per byte, least significant first, high bit set on all
// but the last byte.
func appendVarLen(b []byte, n int) []byte {
	for {
		c := byte(n & 0x7f)
		n >>= 7
		if n == 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
