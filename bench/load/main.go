// Command load offers a team's mix of requests to a running rehearse at a fixed rate (open
// loop) and reports latency percentiles, errors and the ratings the server acknowledged.
// Each request is sent at the moment it is due, whatever the ones before it are doing, and
// its latency runs from that moment: a server that falls behind shows it in the figures
// rather than slowing the client down (coordinated omission).
//
// The mix, per 20 requests: 8 card pages, 5 /study, 5 ratings (JSON), 1 /stats, 1 search,
// each by one of the signed-in users in -cookies, cards picked at random from gen-0000 on.
//
//	go run ./bench/load -url http://127.0.0.1:8080 -cookies FILE -rate 300 -d 60s -acked acked.txt
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// kinds, in the order of the mix: how many of every 20 requests are each.
var kinds = []struct {
	name string
	per  int
}{{"card", 8}, {"study", 5}, {"rate", 5}, {"stats", 1}, {"search", 1}}

var searchWords = []string{"rebalance", "consumer group", "heartbeat", "cooperative", "static member",
	"offset commit", "partition", "coordinator", "session timeout", "sticky"}

type result struct {
	kind int
	lat  time.Duration
	ok   bool
}

func main() {
	base := flag.String("url", "http://127.0.0.1:8080", "server")
	cookieFile := flag.String("cookies", "", "file with one session token per line (one user each)")
	rate := flag.Int("rate", 300, "requests per second offered")
	dur := flag.Duration("d", 60*time.Second, "how long to offer them")
	cards := flag.Int("cards", 1000, "cards gen-0000 ... in the deck")
	ackedFile := flag.String("acked", "", "write the log id of every acknowledged rating here, one per line")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	tokens, err := readLines(*cookieFile)
	if err != nil || len(tokens) == 0 {
		fmt.Fprintln(os.Stderr, "load: -cookies: need a file of session tokens:", err)
		os.Exit(2)
	}
	client := &http.Client{
		Transport:     &http.Transport{MaxIdleConnsPerHost: 1024, MaxIdleConns: 1024},
		Timeout:       30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	var mix []int
	for k, kd := range kinds {
		for range kd.per {
			mix = append(mix, k)
		}
	}
	rng := rand.New(rand.NewPCG(*seed, 2))
	nextCard := make([]atomic.Int64, len(tokens)) // each user rates the cards in turn: no two answers to one card at once
	for u := range nextCard {
		nextCard[u].Store(int64(u * 37 % *cards))
	}

	var (
		mu      sync.Mutex
		results []result
		acked   []int64
		wg      sync.WaitGroup
		errs    = map[string]int{}
	)
	send := func(kind, user int, r *http.Request, due time.Time) {
		defer wg.Done()
		r.AddCookie(&http.Cookie{Name: "rehearse_session", Value: tokens[user]})
		r.Header.Set("Accept-Encoding", "gzip")
		resp, err := client.Do(r)
		var id int64
		ok := err == nil
		if ok {
			if kinds[kind].name == "rate" {
				var ack struct {
					OK    bool  `json:"ok"`
					LogID int64 `json:"log_id"`
				}
				ok = resp.StatusCode == http.StatusOK && json.NewDecoder(resp.Body).Decode(&ack) == nil && ack.OK && ack.LogID > 0
				id = ack.LogID
			} else {
				ok = resp.StatusCode == http.StatusOK
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		lat := time.Since(due)
		mu.Lock()
		defer mu.Unlock()
		results = append(results, result{kind, lat, ok})
		if id > 0 {
			acked = append(acked, id)
		}
		if !ok {
			if err != nil {
				errs[kinds[kind].name+": "+err.Error()]++
			} else {
				errs[fmt.Sprintf("%s: HTTP %d", kinds[kind].name, resp.StatusCode)]++
			}
		}
	}

	start := time.Now()
	n := int(dur.Seconds() * float64(*rate))
	interval := time.Second / time.Duration(*rate)
	for i := range n {
		due := start.Add(time.Duration(i) * interval)
		if w := time.Until(due); w > 0 {
			time.Sleep(w)
		}
		kind, user := mix[rng.IntN(len(mix))], rng.IntN(len(tokens))
		card := fmt.Sprintf("gen-%04d", rng.IntN(*cards))
		var r *http.Request
		switch kinds[kind].name {
		case "card":
			r, _ = http.NewRequest(http.MethodGet, *base+"/cards/"+card, nil)
		case "study":
			r, _ = http.NewRequest(http.MethodGet, *base+"/study", nil)
		case "rate":
			c := fmt.Sprintf("gen-%04d", nextCard[user].Add(1)%int64(*cards))
			form := url.Values{"card": {c}, "rating": {fmt.Sprint(1 + rng.IntN(4))}}
			r, _ = http.NewRequest(http.MethodPost, *base+"/study/answer", strings.NewReader(form.Encode()))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			r.Header.Set("Accept", "application/json")
		case "stats":
			r, _ = http.NewRequest(http.MethodGet, *base+"/stats", nil)
		case "search":
			r, _ = http.NewRequest(http.MethodGet, *base+"/search?q="+url.QueryEscape(searchWords[rng.IntN(len(searchWords))]), nil)
		}
		wg.Add(1)
		go send(kind, user, r, due)
	}
	wg.Wait()
	took := time.Since(start)

	pct := func(lat []time.Duration, p float64) string {
		if len(lat) == 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f", float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds())/1000)
	}
	report := func(name string, keep func(result) bool) {
		var lat []time.Duration
		bad := 0
		for _, r := range results {
			if keep(r) {
				lat = append(lat, r.lat)
				if !r.ok {
					bad++
				}
			}
		}
		slices.Sort(lat)
		fmt.Printf("%-8s %7d %8s %8s %8s %8s %7d\n", name, len(lat), pct(lat, 0.5), pct(lat, 0.95), pct(lat, 0.99), pct(lat, 1), bad)
	}
	fmt.Printf("offered %d req/s for %s to %d users: %d requests in %.1f s\n", *rate, *dur, len(tokens), len(results), took.Seconds())
	fmt.Printf("%-8s %7s %8s %8s %8s %8s %7s\n", "kind", "count", "p50 ms", "p95 ms", "p99 ms", "max ms", "errors")
	report("all", func(result) bool { return true })
	for k, kd := range kinds {
		report(kd.name, func(r result) bool { return r.kind == k })
	}
	for e, c := range errs {
		fmt.Printf("error x%d: %s\n", c, e)
	}
	fmt.Printf("ratings acknowledged: %d\n", len(acked))
	if *ackedFile != "" {
		var b strings.Builder
		for _, id := range acked {
			fmt.Fprintln(&b, id)
		}
		if err := os.WriteFile(*ackedFile, []byte(b.String()), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "load:", err)
			os.Exit(1)
		}
	}
}

func readLines(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if t := strings.TrimSpace(sc.Text()); t != "" {
			out = append(out, t)
		}
	}
	return out, sc.Err()
}
