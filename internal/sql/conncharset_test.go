package sql

import (
	"strings"
	"testing"
)

func TestDecodeClientText(t *testing.T) {
	latin1, _, ok := conversionCharset("latin1")
	if !ok || latin1 == nil {
		t.Fatal("latin1 must convert")
	}
	sjis, _, ok := conversionCharset("sjis")
	if !ok || sjis == nil {
		t.Fatal("sjis must convert")
	}
	for _, c := range []struct {
		name, in, want string
		sjis           bool
	}{
		{name: "latin1 literal", in: "SELECT 'caf\xe9'", want: "SELECT 'café'"},
		{name: "identifier", in: "SELECT `\xe9` FROM t", want: "SELECT `é` FROM t"},
		{name: "binary literal kept", in: "SELECT _binary'\xe9\xff', '\xe9'", want: "SELECT _binary'\xe9\xff', 'é'"},
		{name: "binary with space and escapes", in: "SELECT _BINARY  '\\'\xe9''\xe9' , '\xe9'", want: "SELECT _BINARY  '\\'\xe9''\xe9' , 'é'"},
		{name: "not an introducer", in: "SELECT x_binary'\xe9'", want: "SELECT x_binary'é'"},
		// 0x95 0x5C is one sjis character (表) whose second byte is a backslash.
		{name: "sjis trail byte 0x5c", in: "SELECT '\x95\x5c', 'a'", want: "SELECT '表', 'a'", sjis: true},
	} {
		cs := latin1
		if c.sjis {
			cs = sjis
		}
		if got := decodeClientText(cs, c.in); got != c.want {
			t.Errorf("%s: decodeClientText(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
	}
	for _, name := range []string{"utf8mb4", "utf8", "utf8mb3", "ascii", "binary"} {
		if cs, _, ok := conversionCharset(name); !ok || cs != nil {
			t.Errorf("%s: conversion %v ok %v, want none", name, cs, ok)
		}
	}
	for name, code := range map[string]string{"bogus": "1115", "utf16": "1231", "gbk": "1235"} {
		if err := checkCharsetName("character_set_client", name); err == nil || !strings.Contains(err.Error(), code) {
			t.Errorf("character_set_client = %s: %v, want error %s", name, err, code)
		}
	}
}
