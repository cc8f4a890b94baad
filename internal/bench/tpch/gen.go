package tpch

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// Tables are the TPC-H tables in load order.
var Tables = []string{"region", "nation", "supplier", "customer", "part", "partsupp", "orders", "lineitem"}

// STARTDATE, CURRENTDATE and ENDDATE of the specification, as days since
// startDate.
var (
	startDate   = time.Date(1992, 1, 1, 0, 0, 0, 0, time.UTC)
	currentDate = days(time.Date(1995, 6, 17, 0, 0, 0, 0, time.UTC))
	endDate     = days(time.Date(1998, 12, 31, 0, 0, 0, 0, time.UTC))
)

func days(t time.Time) int { return int(t.Sub(startDate).Hours() / 24) }

// dateStrings[d] is date d as 'YYYY-MM-DD' (quoted).
var dateStrings = func() []string {
	out := make([]string, endDate+1)
	for d := range out {
		out[d] = "'" + startDate.AddDate(0, 0, d).Format("2006-01-02") + "'"
	}
	return out
}()

// MinScale is the smallest scale factor the generator accepts: below it
// there are fewer than 100 suppliers, and the specification's partsupp
// formula can give a part the same supplier twice.
const MinScale = 0.01

// Generator produces the TPC-H tables at a scale factor following clause
// 4.2 of the specification: its cardinalities, key formulas and value
// distributions. Text columns are random substrings of a pool of sentences
// from the specification's grammar (4 MiB here instead of 300 MB). The
// rows are a function of the scale factor and the seed; each table draws
// from its own random stream, so a table does not change when another
// one's generation changes.
type Generator struct {
	sf   float64
	seed uint64
	pool string
}

// NewGenerator returns a generator for scale factor sf (≥ MinScale).
func NewGenerator(sf float64, seed uint64) (*Generator, error) {
	if !(sf >= MinScale) || sf > 1000 {
		return nil, fmt.Errorf("tpch: scale factor %v out of range [%v, 1000]", sf, MinScale)
	}
	g := &Generator{sf: sf, seed: seed}
	g.pool = textPool(g.stream(0), textPoolBytes)
	return g, nil
}

// stream is the random stream of table i (0: the text pool).
func (g *Generator) stream(i uint64) *rand.Rand { return rand.New(rand.NewPCG(g.seed, 0x7c4+i)) }

func (g *Generator) scaled(base int) int { return max(1, int(math.Round(g.sf*float64(base)))) }

// Cardinalities at the scale factor; lineitem has 1 to 7
// rows per order (about 4 × orders).
func (g *Generator) suppliers() int { return g.scaled(10000) }
func (g *Generator) parts() int     { return g.scaled(200000) }
func (g *Generator) customers() int { return g.scaled(150000) }
func (g *Generator) orders() int    { return g.scaled(1500000) }
func (g *Generator) clerks() int    { return g.scaled(1000) }

// Rows is the number of rows of table (for lineitem, 4 × orders, its
// expected number).
func (g *Generator) Rows(table string) int {
	switch table {
	case "region":
		return len(regions)
	case "nation":
		return len(nations)
	case "supplier":
		return g.suppliers()
	case "customer":
		return g.customers()
	case "part":
		return g.parts()
	case "partsupp":
		return 4 * g.parts()
	case "orders":
		return g.orders()
	case "lineitem":
		return 4 * g.orders()
	}
	return 0
}

// Emit receives the rows: the table and the row's values as SQL literals
// in column order. Returning false stops the generation.
type Emit func(table string, row []string) bool

// Generate emits every row of every table: region, nation, supplier,
// customer, then each part followed by its four partsupp rows, then each
// order followed by its lineitems. It returns false when emit stopped it.
func (g *Generator) Generate(emit Emit) bool {
	return g.regions(emit) && g.nations(emit) && g.supplierRows(emit) && g.customerRows(emit) &&
		g.partRows(emit) && g.orderRows(emit)
}

func (g *Generator) regions(emit Emit) bool {
	r := g.stream(1)
	for i, name := range regions {
		if !emit("region", []string{strconv.Itoa(i), quote(name), quote(g.text(r, 31, 115))}) {
			return false
		}
	}
	return true
}

func (g *Generator) nations(emit Emit) bool {
	r := g.stream(2)
	for i, n := range nations {
		if !emit("nation", []string{strconv.Itoa(i), quote(n.name), strconv.Itoa(n.region), quote(g.text(r, 31, 114))}) {
			return false
		}
	}
	return true
}

func (g *Generator) supplierRows(emit Emit) bool {
	r := g.stream(3)
	for k := 1; k <= g.suppliers(); k++ {
		nation := r.IntN(len(nations))
		comment := g.text(r, 25, 100)
		// 5 of every 10,000 suppliers complain, 5 recommend.
		switch n := r.IntN(10000); {
		case n < 5:
			comment = embed(r, comment, "Customer ", "Complaints")
		case n < 10:
			comment = embed(r, comment, "Customer ", "Recommends")
		}
		if !emit("supplier", append(party(r, "Supplier", k, nation), quote(comment))) {
			return false
		}
	}
	return true
}

// party is the columns suppliers and customers share: key, name
// ("Supplier#000000001"), address, nation, phone and account balance.
func party(r *rand.Rand, kind string, k, nation int) []string {
	return []string{strconv.Itoa(k), quote(fmt.Sprintf("%s#%09d", kind, k)), quote(vstring(r, 10, 40)),
		strconv.Itoa(nation), quote(phone(r, nation)), money(-99999 + r.Int64N(1099999))}
}

func (g *Generator) customerRows(emit Emit) bool {
	r := g.stream(4)
	for k := 1; k <= g.customers(); k++ {
		row := party(r, "Customer", k, r.IntN(len(nations)))
		row = append(row, quote(segments[r.IntN(len(segments))]), quote(g.text(r, 29, 116)))
		if !emit("customer", row) {
			return false
		}
	}
	return true
}

// retailPrice is P_RETAILPRICE of part k in cents.
func retailPrice(k int) int64 {
	return int64(90000 + (k/10)%20001 + 100*(k%1000))
}

// partSupplier is the i-th (0–3) supplier of part k among s suppliers
// (the specification's PS_SUPPKEY formula).
func partSupplier(k, i, s int) int {
	return (k+i*(s/4+(k-1)/s))%s + 1
}

func (g *Generator) partRows(emit Emit) bool {
	r := g.stream(5)
	rs := g.stream(6)
	words := make([]string, len(colors))
	for k := 1; k <= g.parts(); k++ {
		// P_NAME: five distinct colors (a partial shuffle).
		copy(words, colors)
		for i := range 5 {
			j := i + r.IntN(len(words)-i)
			words[i], words[j] = words[j], words[i]
		}
		m := 1 + r.IntN(5)
		typ := typeSyllable1[r.IntN(len(typeSyllable1))] + " " + typeSyllable2[r.IntN(len(typeSyllable2))] + " " + typeSyllable3[r.IntN(len(typeSyllable3))]
		size := 1 + r.IntN(50)
		container := containerSyllable1[r.IntN(len(containerSyllable1))] + " " + containerSyllable2[r.IntN(len(containerSyllable2))]
		row := []string{strconv.Itoa(k), quote(strings.Join(words[:5], " ")), quote(fmt.Sprintf("Manufacturer#%d", m)),
			quote(fmt.Sprintf("Brand#%d%d", m, 1+r.IntN(5))), quote(typ), strconv.Itoa(size), quote(container),
			money(retailPrice(k)), quote(g.text(r, 5, 22))}
		if !emit("part", row) {
			return false
		}
		for i := range 4 {
			row := []string{strconv.Itoa(k), strconv.Itoa(partSupplier(k, i, g.suppliers())), strconv.Itoa(1 + rs.IntN(9999)),
				money(100 + rs.Int64N(99901)), quote(g.text(rs, 49, 198))}
			if !emit("partsupp", row) {
				return false
			}
		}
	}
	return true
}

// orderKey is the key of the n-th order (1-based): only the first 8 of
// every 32 keys are used.
func orderKey(n int) int { return (n-1)/8*32 + (n-1)%8 + 1 }

func (g *Generator) orderRows(emit Emit) bool {
	r := g.stream(7)
	rl := g.stream(8)
	lines := make([][]string, 0, 7)
	for n := 1; n <= g.orders(); n++ {
		key := orderKey(n)
		cust := 1 + r.IntN(g.customers())
		for cust%3 == 0 { // a third of the customers have no orders
			cust = 1 + r.IntN(g.customers())
		}
		date := r.IntN(endDate - 151 + 1)
		priority := priorities[r.IntN(len(priorities))]
		clerk := fmt.Sprintf("Clerk#%09d", 1+r.IntN(g.clerks()))
		comment := g.text(r, 19, 78)

		lines = lines[:0]
		var total int64
		shipped, open := 0, 0
		count := 1 + rl.IntN(7)
		for ln := 1; ln <= count; ln++ {
			part := 1 + rl.IntN(g.parts())
			supp := partSupplier(part, rl.IntN(4), g.suppliers())
			qty := int64(1 + rl.IntN(50))
			ext := qty * retailPrice(part)
			disc, tax := int64(rl.IntN(11)), int64(rl.IntN(9))
			total += ext * (100 - disc) / 100 * (100 + tax) / 100
			ship := date + 1 + rl.IntN(121)
			commit := date + 30 + rl.IntN(61)
			receipt := ship + 1 + rl.IntN(30)
			flag := "N"
			if receipt <= currentDate {
				i := rl.IntN(2)
				flag = "RA"[i : i+1]
			}
			status := "F"
			if ship > currentDate {
				status = "O"
				open++
			} else {
				shipped++
			}
			lines = append(lines, []string{strconv.Itoa(key), strconv.Itoa(part), strconv.Itoa(supp), strconv.Itoa(ln),
				strconv.FormatInt(qty, 10) + ".00", money(ext), money(disc), money(tax), quote(flag), quote(status),
				dateStrings[ship], dateStrings[commit], dateStrings[receipt],
				quote(instructions[rl.IntN(len(instructions))]), quote(modes[rl.IntN(len(modes))]), quote(g.text(rl, 10, 43))})
		}
		status := "P"
		switch {
		case open == 0:
			status = "F"
		case shipped == 0:
			status = "O"
		}
		row := []string{strconv.Itoa(key), strconv.Itoa(cust), quote(status), money(total), dateStrings[date],
			quote(priority), quote(clerk), "0", quote(comment)}
		if !emit("orders", row) {
			return false
		}
		for _, l := range lines {
			if !emit("lineitem", l) {
				return false
			}
		}
	}
	return true
}

// text is a random substring of the text pool with a length in [lo, hi]
// (the specification's text strings).
func (g *Generator) text(r *rand.Rand, lo, hi int) string {
	n := lo + r.IntN(hi-lo+1)
	at := r.IntN(len(g.pool) - n)
	return g.pool[at : at+n]
}

// embed writes first, some of s, then last over s at a random position
// (S_COMMENT's "Customer … Complaints").
func embed(r *rand.Rand, s, first, last string) string {
	room := len(s) - len(first) - len(last)
	if room < 0 {
		return first + last
	}
	gap := r.IntN(room + 1)
	at := r.IntN(room - gap + 1)
	return s[:at] + first + s[at+len(first):at+len(first)+gap] + last + s[at+len(first)+gap+len(last):]
}

// vstring is a random v-string of length in [lo, hi].
func vstring(r *rand.Rand, lo, hi int) string {
	const alphabet = "0123456789abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ,"
	b := make([]byte, lo+r.IntN(hi-lo+1))
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b)
}

// phone is a phone number of a nation: country code nation+10.
func phone(r *rand.Rand, nation int) string {
	return fmt.Sprintf("%02d-%03d-%03d-%04d", nation+10, 100+r.IntN(900), 100+r.IntN(900), 1000+r.IntN(9000))
}

// money renders cents as a decimal literal.
func money(c int64) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return fmt.Sprintf("%s%d.%02d", sign, c/100, c%100)
}

// quote renders s as a SQL string literal.
func quote(s string) string {
	if !strings.ContainsAny(s, `'\`) {
		return "'" + s + "'"
	}
	return "'" + strings.NewReplacer(`'`, `''`, `\`, `\\`).Replace(s) + "'"
}

// textPool generates n bytes of sentences from the text grammar.
func textPool(r *rand.Rand, n int) string {
	var b strings.Builder
	b.Grow(n + 200)
	pickWord := func(w *weighted) string { return w.pick(r.IntN(w.total)) }
	var words []string
	phrase := func(w *weighted) {
		for _, sym := range strings.Fields(pickWord(w)) {
			var word string
			switch strings.TrimSuffix(sym, ",") {
			case "N":
				word = pickWord(nouns)
			case "J":
				word = pickWord(adjectives)
			case "D":
				word = pickWord(adverbs)
			case "V":
				word = pickWord(verbs)
			case "X":
				word = pickWord(auxiliaries)
			}
			if strings.HasSuffix(sym, ",") {
				word += ","
			}
			words = append(words, word)
		}
	}
	for b.Len() < n {
		words = words[:0]
		for _, sym := range strings.Fields(pickWord(sentences)) {
			switch sym {
			case "N":
				phrase(nounPhrases)
			case "V":
				phrase(verbPhrases)
			case "P":
				words = append(words, pickWord(prepositions), "the")
				phrase(nounPhrases)
			case "T":
				words[len(words)-1] += pickWord(terminators)
			}
		}
		b.WriteString(strings.Join(words, " "))
		b.WriteByte(' ')
	}
	return b.String()
}
