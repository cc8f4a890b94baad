package tpcc

import "math/rand/v2"

// This file holds TPC-C's random input generation (clauses 2.1.6 and 4.3.2).

// nurand is NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y − x + 1)) + x,
// TPC-C's non-uniform random function, with run-time constant c.
func nurand(r *rand.Rand, a, c, x, y int) int {
	return (((r.IntN(a+1) | (x + r.IntN(y-x+1))) + c) % (y - x + 1)) + x
}

// constants are the run-time constants C of NURand for customer last
// names, customer ids and item ids (clause 2.1.6.1). nameLoad is the C of
// the names given at load, nameRun the one of the names transactions look
// up; their difference lies in [65, 119] and is neither 96 nor 112.
type constants struct {
	nameLoad, nameRun, custID, itemID int
}

func newConstants(r *rand.Rand) constants {
	c := constants{nameLoad: r.IntN(256), custID: r.IntN(1024), itemID: r.IntN(8192)}
	delta := 65 + r.IntN(55)
	for delta == 96 || delta == 112 {
		delta = 65 + r.IntN(55)
	}
	c.nameRun = (c.nameLoad + delta) % 256
	return c
}

// lastNameSyllables are TPC-C's C_LAST syllables (clause 4.3.2.3).
var lastNameSyllables = []string{"BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"}

// lastName returns TPC-C's last name for number n (0..999).
func lastName(n int) string {
	return lastNameSyllables[n/100] + lastNameSyllables[(n/10)%10] + lastNameSyllables[n%10]
}

// randomName draws a last name number with NURand(255, 0, 999) mod names.
func randomName(r *rand.Rand, c, names int) int { return nurand(r, 255, c, 0, 999) % names }

const (
	alnum  = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	digits = "0123456789"
)

// astring is a random a-string of length in [lo, hi] (clause 4.3.2.2).
func astring(r *rand.Rand, lo, hi int) string { return pick(r, alnum, lo+r.IntN(hi-lo+1)) }

// nstring is a random numeric string of length in [lo, hi].
func nstring(r *rand.Rand, lo, hi int) string { return pick(r, digits, lo+r.IntN(hi-lo+1)) }

func pick(r *rand.Rand, set string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = set[r.IntN(len(set))]
	}
	return string(b)
}

// zip is a zip code: four random digits and "11111" (clause 4.3.2.7).
func zip(r *rand.Rand) string { return nstring(r, 4, 4) + "11111" }

// data is I_DATA or S_DATA: an a-string of 26 to 50 characters, 10 % of
// which hold "ORIGINAL" at a random position (clause 4.3.3.1).
func data(r *rand.Rand) string {
	s := astring(r, 26, 50)
	if r.IntN(10) == 0 {
		at := r.IntN(len(s) - 8)
		s = s[:at] + "ORIGINAL" + s[at+8:]
	}
	return s
}
