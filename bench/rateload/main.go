// Command rateload offers rating POSTs at a fixed rate (open loop), spread over many signed-in
// users, and prints throughput and latency percentiles. wrk keeps every connection busy (closed
// loop), so with 50 connections its mean latency is simply 50 / throughput; a target such as
// "2,000 ratings/s with p99 under 20 ms" is about a given offered rate, which this measures.
// Latency runs from the moment a request was due, so a stalled server is not hidden
// (coordinated omission).
//
//	go run ./bench/rateload -url http://127.0.0.1:8080 -cookies FILE -rate 2000 -d 10s
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	base := flag.String("url", "http://127.0.0.1:8080", "server")
	cookieFile := flag.String("cookies", "", "file with one session token per line (one user each)")
	rate := flag.Int("rate", 2000, "requests per second offered")
	dur := flag.Duration("d", 10*time.Second, "duration")
	cards := flag.Int("cards", 1000, "cards gen-0000 ... to rate")
	flag.Parse()
	tokens, err := readLines(*cookieFile)
	if err != nil || len(tokens) == 0 {
		fmt.Fprintln(os.Stderr, "rateload: -cookies: need a file of session tokens:", err)
		os.Exit(2)
	}
	tr := &http.Transport{MaxIdleConnsPerHost: len(tokens)}
	client := &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	// One goroutine and connection per user; the user's requests queue in order, so one user
	// never has two answers in flight (as in a browser).
	type job struct {
		due  time.Time
		card int
	}
	queues := make([]chan job, len(tokens))
	var mu sync.Mutex
	var lat []time.Duration
	var bad atomic.Int64
	var wg sync.WaitGroup
	for u := range tokens {
		queues[u] = make(chan job, 1024)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range queues[u] {
				form := url.Values{"card": {fmt.Sprintf("gen-%04d", j.card)}, "rating": {fmt.Sprint(1 + j.card%4)}}
				req, _ := http.NewRequest(http.MethodPost, *base+"/study/answer", strings.NewReader(form.Encode()))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				req.AddCookie(&http.Cookie{Name: "rehearse_session", Value: tokens[u]})
				resp, err := client.Do(req)
				if err != nil {
					bad.Add(1)
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusSeeOther {
					bad.Add(1)
				}
				d := time.Since(j.due)
				mu.Lock()
				lat = append(lat, d)
				mu.Unlock()
			}
		}()
	}
	start := time.Now()
	interval := time.Second / time.Duration(*rate)
	n := int(dur.Seconds() * float64(*rate))
	for i := range n {
		due := start.Add(time.Duration(i) * interval)
		if w := time.Until(due); w > 0 {
			time.Sleep(w)
		}
		queues[i%len(tokens)] <- job{due: due, card: (i / len(tokens)) % *cards}
	}
	for _, q := range queues {
		close(q)
	}
	wg.Wait()
	took := time.Since(start)
	slices.Sort(lat)
	pct := func(p float64) float64 {
		if len(lat) == 0 {
			return 0
		}
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	fmt.Printf("offered %d/s for %s to %d users: %d answers in %.1fs = %.0f/s; p50 %.2f ms, p99 %.2f ms, max %.2f ms; errors %d\n",
		*rate, *dur, len(tokens), len(lat), took.Seconds(), float64(len(lat))/took.Seconds(), pct(0.5), pct(0.99), pct(1), bad.Load())
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
