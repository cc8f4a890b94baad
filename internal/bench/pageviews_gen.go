package bench

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"time"
)

// The pageviews workload's data: a web analytics log modelled on the
// MyRocks trial of issue 13 (a 90 GB page_views.csv). One line per page
// view, in pv_id order (an export of an append-only log is in key order):
//
//	pv_id,pv_timestamp,user_id,session_id,page_url,referrer,user_agent,
//	country,region,city,latitude,longitude,http_status,response_bytes,load_time_ms
//
//   - pv_timestamp rises over pvSpan (six months) with a few seconds of
//     jitter, so it is nearly but not strictly in file order;
//   - user_id is Zipf-skewed (s = pvUserSkew) over about one user per
//     pvRowsPerUser rows, ranks scattered over the id space;
//   - session_id is a hash of the user and the half hour;
//   - page_url is one of pvPages pages, Zipf-skewed (s = pvPageSkew), 40–130
//     bytes long; the pages table (pages.csv) describes each;
//   - referrer is empty, a search engine query or another page;
//   - user_agent is a browser family, weighted as real traffic;
//   - the geo columns are the user's home city (from pvCities) with the
//     coordinates jittered by up to ±0.05°;
//   - http_status, response_bytes (log-normal) and load_time_ms (log-normal).
//
// Everything is a function of the seed: the same seed and size give the
// same bytes. The file is streamed; memory does not grow with its size.

// pvColumns are the page_views columns in file order.
var pvColumns = []string{"pv_id", "pv_timestamp", "user_id", "session_id", "page_url", "referrer", "user_agent",
	"country", "region", "city", "latitude", "longitude", "http_status", "response_bytes", "load_time_ms"}

const (
	// pvPages is the number of distinct pages.
	pvPages = 3000
	// pvRowsPerUser sets the user count: about one user per this many rows
	// (at least pvMinUsers).
	pvRowsPerUser = 40
	pvMinUsers    = 200
	// pvUserSkew and pvPageSkew are the Zipf exponents of users and pages.
	pvUserSkew = 1.1
	pvPageSkew = 1.05
	// pvAvgRowBytes is the expected line length, used to spread the
	// timestamps and size the user population before the row count is
	// known.
	pvAvgRowBytes = 230
	// pvSpan is the time the log covers.
	pvSpan = 182 * 24 * time.Hour
	// pvQueryUserRank is the Zipf rank of the user the join query asks
	// for: an active user, not the busiest (a crawler-like outlier).
	pvQueryUserRank = 50
)

// pvStart is the first page view's time.
var pvStart = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// pvSections name the site's sections (the first path element of a url).
var pvSections = []string{"news", "sport", "business", "tech", "science", "travel", "food", "culture", "opinion", "video", "health", "money"}

// pvWords make slugs, titles and search queries.
var pvWords = []string{"the", "new", "how", "why", "best", "guide", "review", "world", "city", "market", "season", "report",
	"election", "climate", "energy", "football", "recipe", "summer", "winter", "travel", "phone", "launch", "study", "health",
	"music", "film", "price", "bank", "school", "river", "mountain", "coffee", "startup", "space", "ocean", "history", "future",
	"data", "privacy", "garden"}

// pvSearch are referring search engines (weights follow real shares).
var pvSearch = []struct {
	prefix string
	weight int
}{{"https://www.google.com/search?q=", 85}, {"https://www.bing.com/search?q=", 8}, {"https://duckduckgo.com/?q=", 4}, {"https://search.yahoo.com/search?p=", 3}}

// pvAgents are browser families with weights.
var pvAgents = []struct {
	name   string
	weight int
}{{"Chrome", 62}, {"Safari", 19}, {"Edge", 5}, {"Firefox", 4}, {"Samsung Internet", 3}, {"Opera", 2}, {"Chrome Mobile iOS", 2}, {"Googlebot", 2}, {"Other", 1}}

// pvCity is a city users live in.
type pvCity struct {
	country, region, city string
	lat, long             float64
	weight                int
}

var pvCities = []pvCity{
	{"US", "California", "Los Angeles", 34.0522, -118.2437, 40}, {"US", "California", "San Francisco", 37.7749, -122.4194, 20},
	{"US", "New York", "New York", 40.7128, -74.0060, 45}, {"US", "Texas", "Houston", 29.7604, -95.3698, 20},
	{"US", "Illinois", "Chicago", 41.8781, -87.6298, 22}, {"US", "Washington", "Seattle", 47.6062, -122.3321, 12},
	{"CA", "Ontario", "Toronto", 43.6532, -79.3832, 15}, {"CA", "Quebec", "Montreal", 45.5017, -73.5673, 8},
	{"GB", "England", "London", 51.5074, -0.1278, 35}, {"GB", "England", "Manchester", 53.4808, -2.2426, 8},
	{"IE", "Leinster", "Dublin", 53.3498, -6.2603, 5}, {"DE", "Berlin", "Berlin", 52.5200, 13.4050, 15},
	{"DE", "Bavaria", "Munich", 48.1351, 11.5820, 10}, {"FR", "Ile-de-France", "Paris", 48.8566, 2.3522, 20},
	{"ES", "Madrid", "Madrid", 40.4168, -3.7038, 10}, {"IT", "Lombardy", "Milan", 45.4642, 9.1900, 8},
	{"NL", "North Holland", "Amsterdam", 52.3676, 4.9041, 7}, {"SE", "Stockholm", "Stockholm", 59.3293, 18.0686, 5},
	{"PL", "Masovia", "Warsaw", 52.2297, 21.0122, 6}, {"IN", "Maharashtra", "Mumbai", 19.0760, 72.8777, 25},
	{"IN", "Karnataka", "Bengaluru", 12.9716, 77.5946, 18}, {"JP", "Tokyo", "Tokyo", 35.6762, 139.6503, 20},
	{"KR", "Seoul", "Seoul", 37.5665, 126.9780, 10}, {"SG", "Singapore", "Singapore", 1.3521, 103.8198, 6},
	{"AU", "New South Wales", "Sydney", -33.8688, 151.2093, 10}, {"BR", "Sao Paulo", "Sao Paulo", -23.5505, -46.6333, 15},
	{"MX", "Mexico City", "Mexico City", 19.4326, -99.1332, 10}, {"AR", "Buenos Aires", "Buenos Aires", -34.6037, -58.3816, 6},
	{"ZA", "Gauteng", "Johannesburg", -26.2041, 28.0473, 5}, {"NG", "Lagos", "Lagos", 6.5244, 3.3792, 6},
}

// pvStatuses are HTTP statuses with weights (per mille).
var pvStatuses = []struct {
	code   int
	weight int
}{{200, 920}, {304, 30}, {404, 30}, {301, 10}, {500, 7}, {503, 3}}

// pvGen generates the page_views and pages files.
type pvGen struct {
	seed    uint64
	estRows int64 // rows the target size is expected to hold
	users   uint64
	pages   []pvPage
}

// pvPage is one row of the pages table.
type pvPage struct {
	id      int
	url     string
	title   string
	section string
	words   int
}

// newPVGen returns the generator for a file of about size bytes.
func newPVGen(seed uint64, size int64) *pvGen {
	g := &pvGen{seed: seed, estRows: max(1, size/pvAvgRowBytes)}
	g.users = uint64(max(pvMinUsers, g.estRows/pvRowsPerUser))
	r := rand.New(rand.NewPCG(seed, 0x9a6e))
	g.pages = make([]pvPage, pvPages)
	for i := range g.pages {
		sec := pvSections[r.IntN(len(pvSections))]
		n := 3 + r.IntN(9)
		slug := make([]byte, 0, 128)
		title := make([]byte, 0, 128)
		for w := 0; w < n; w++ {
			word := pvWords[r.IntN(len(pvWords))]
			if w > 0 {
				slug = append(slug, '-')
				title = append(title, ' ')
			}
			slug = append(slug, word...)
			title = append(title, word...)
		}
		if len(title) > 0 {
			title[0] -= 'a' - 'A'
		}
		g.pages[i] = pvPage{
			id:      i + 1,
			url:     fmt.Sprintf("https://www.example.com/%s/%d/%s-%d", sec, 2015+r.IntN(10), slug, i+1),
			title:   string(title),
			section: sec,
			words:   200 + r.IntN(2800),
		}
	}
	return g
}

// scatter maps a Zipf rank (0-based) to an id in 1..n, so that the
// busiest users and pages are spread over the id space.
func scatter(rank, n uint64) uint64 { return (rank*2654435761)%n + 1 }

// queryUser is the user_id the join query asks for.
func (g *pvGen) queryUser() uint64 { return scatter(pvQueryUserRank, g.users) }

// pageForRank is the page of Zipf rank rank.
func (g *pvGen) pageForRank(rank uint64) *pvPage {
	return &g.pages[scatter(rank, uint64(len(g.pages)))-1]
}

// mix64 is SplitMix64's finaliser: a per-value hash for per-user choices.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// pick returns the index chosen by u in [0, total) among weights.
func pick(u int, weights func(i int) int, n int) int {
	for i := 0; i < n; i++ {
		w := weights(i)
		if u < w {
			return i
		}
		u -= w
	}
	return n - 1
}

func sumWeights(weights func(i int) int, n int) int {
	t := 0
	for i := 0; i < n; i++ {
		t += weights(i)
	}
	return t
}

// cityOf is a user's home city.
func (g *pvGen) cityOf(user uint64) *pvCity {
	w := func(i int) int { return pvCities[i].weight }
	total := sumWeights(w, len(pvCities))
	return &pvCities[pick(int(mix64(user^g.seed)%uint64(total)), w, len(pvCities))]
}

// writePages writes the pages table: page_id,page_url,title,section,words.
func (g *pvGen) writePages(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, p := range g.pages {
		fmt.Fprintf(bw, "%d,%s,%s,%s,%d\n", p.id, p.url, p.title, p.section, p.words)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write pages: %w", err)
	}
	return nil
}

// writeViews writes page views to w until at least size bytes are
// written, returning the rows and bytes written.
func (g *pvGen) writeViews(w io.Writer, size int64) (rows, written int64, err error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	r := rand.New(rand.NewPCG(g.seed, 0x5eed))
	users := rand.NewZipf(r, pvUserSkew, 1, g.users-1)
	pages := rand.NewZipf(r, pvPageSkew, 1, uint64(len(g.pages)-1))
	gap := float64(pvSpan/time.Second) / float64(g.estRows) // seconds per row
	jitter := min(30, max(1, 5*gap))
	agentW := func(i int) int { return pvAgents[i].weight }
	agentTotal := sumWeights(agentW, len(pvAgents))
	searchW := func(i int) int { return pvSearch[i].weight }
	searchTotal := sumWeights(searchW, len(pvSearch))
	statusW := func(i int) int { return pvStatuses[i].weight }
	statusTotal := sumWeights(statusW, len(pvStatuses))
	start := pvStart.Unix()
	line := make([]byte, 0, 512)
	for written < size {
		rows++
		line = line[:0]
		line = strconv.AppendInt(line, rows, 10)
		line = append(line, ',')
		ts := start + int64(float64(rows)*gap+r.Float64()*jitter)
		line = time.Unix(ts, 0).UTC().AppendFormat(line, time.DateTime)
		line = append(line, ',')
		user := scatter(users.Uint64(), g.users)
		line = strconv.AppendUint(line, user, 10)
		line = append(line, ',')
		sess := mix64(user<<20 ^ uint64(ts/1800) ^ g.seed)
		line = appendHex16(line, sess)
		line = append(line, ',')
		page := g.pageForRank(pages.Uint64())
		line = append(line, page.url...)
		line = append(line, ',')
		switch u := r.IntN(100); {
		case u < 45: // direct: empty referrer
		case u < 75:
			s := pvSearch[pick(r.IntN(searchTotal), searchW, len(pvSearch))]
			line = append(line, s.prefix...)
			for k, n := 0, 1+r.IntN(4); k < n; k++ {
				if k > 0 {
					line = append(line, '+')
				}
				line = append(line, pvWords[r.IntN(len(pvWords))]...)
			}
		default:
			line = append(line, g.pageForRank(pages.Uint64()).url...)
		}
		line = append(line, ',')
		ua := pvAgents[pick(int(mix64(user^0xa6e)%uint64(agentTotal)), agentW, len(pvAgents))]
		if r.IntN(10) == 0 { // one view in ten from another device
			ua = pvAgents[pick(r.IntN(agentTotal), agentW, len(pvAgents))]
		}
		line = append(line, ua.name...)
		line = append(line, ',')
		c := g.cityOf(user)
		line = append(line, c.country...)
		line = append(line, ',')
		line = append(line, c.region...)
		line = append(line, ',')
		line = append(line, c.city...)
		line = append(line, ',')
		line = strconv.AppendFloat(line, c.lat+(r.Float64()-0.5)*0.1, 'f', 5, 64)
		line = append(line, ',')
		line = strconv.AppendFloat(line, c.long+(r.Float64()-0.5)*0.1, 'f', 5, 64)
		line = append(line, ',')
		st := pvStatuses[pick(r.IntN(statusTotal), statusW, len(pvStatuses))].code
		line = strconv.AppendInt(line, int64(st), 10)
		line = append(line, ',')
		bytes := int64(0)
		if st == 200 {
			bytes = int64(math.Exp(r.NormFloat64()*0.8 + 10.5))
		} else if st != 304 {
			bytes = 200 + int64(r.IntN(800))
		}
		line = strconv.AppendInt(line, bytes, 10)
		line = append(line, ',')
		line = strconv.AppendInt(line, int64(math.Exp(r.NormFloat64()*0.7+5.6)), 10)
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			return rows, written, fmt.Errorf("write page views: %w", err)
		}
		written += int64(len(line))
	}
	if err := bw.Flush(); err != nil {
		return rows, written, fmt.Errorf("write page views: %w", err)
	}
	return rows, written, nil
}

// appendHex16 appends v as 16 lower-case hex digits.
func appendHex16(b []byte, v uint64) []byte {
	const digits = "0123456789abcdef"
	for i := 60; i >= 0; i -= 4 {
		b = append(b, digits[(v>>uint(i))&0xf])
	}
	return b
}

// PVFiles are the generated files of the pageviews workload.
type PVFiles struct {
	Views, Pages string
	Rows         int64 // page_views rows
	Bytes        int64 // page_views file size
	QueryUser    uint64
	Seconds      float64 // time to generate
}

// GeneratePageViews writes page_views.csv (about size bytes) and
// pages.csv into dir.
func GeneratePageViews(dir string, seed uint64, size int64) (PVFiles, error) {
	t0 := time.Now()
	g := newPVGen(seed, size)
	out := PVFiles{Views: dir + "/page_views.csv", Pages: dir + "/pages.csv", QueryUser: g.queryUser()}
	if err := writeFileWith(out.Pages, g.writePages); err != nil {
		return out, err
	}
	err := writeFileWith(out.Views, func(w io.Writer) error {
		var err error
		out.Rows, out.Bytes, err = g.writeViews(w, size)
		return err
	})
	out.Seconds = time.Since(t0).Seconds()
	return out, err
}

// writeFileWith creates path and fills it with write.
func writeFileWith(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", path, err)
	}
	return nil
}
